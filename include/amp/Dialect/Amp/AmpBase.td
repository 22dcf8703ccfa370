//===- AmpBase.td - The amp dialect ------------------------*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The amp dialect carries precision policy in the IR: attributes a user puts
// on an op, or on a region-holding op as a scope, to steer mixed precision.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_AMPBASE_TD
#define AMP_DIALECT_AMP_AMPBASE_TD

include "mlir/IR/OpBase.td"

def Amp_Dialect : Dialect {
  let name = "amp";
  let cppNamespace = "::mlir::amp";
  let summary = "Precision policy for automatic mixed precision";
  let description = [{
    The `amp` dialect lets a user state precision policy directly in the IR.
    It defines no operations; its attributes are attached under two
    discardable names:

    * `amp.precision` on an op: the policy for that op alone.
    * `amp.scope` on an op with regions (a function, an `scf.for`, any
      region-holding op): the policy for everything nested in it, the way a
      PyTorch autocast region applies to the code it encloses. An inner scope
      overrides an outer one, and an op's own `amp.precision` overrides both.

    ```mlir
    func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32>
        attributes {amp.scope = #amp.precision<low = bf16, accumulate = f32>} {
      %e = math.exp %a {amp.precision = #amp.precision<policy = follow>}
          : tensor<8x8xf32>
      return %e : tensor<8x8xf32>
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// Name of the per-op policy attribute.
    static constexpr ::llvm::StringLiteral getPrecisionAttrName() {
      return ::llvm::StringLiteral("amp.precision");
    }
    /// Name of the argument attribute giving the range of an argument's
    /// values: `amp.range = [lo, hi]` (two floats, lo <= hi).
    static constexpr ::llvm::StringLiteral getRangeAttrName() {
      return ::llvm::StringLiteral("amp.range");
    }
    /// Name of the scoped policy attribute on region-holding ops.
    static constexpr ::llvm::StringLiteral getScopeAttrName() {
      return ::llvm::StringLiteral("amp.scope");
    }

    /// Receives the JSON report of every mixed-precision run in this context,
    /// besides its `report` file, so that in-process clients (the C API) read
    /// reports without files. Called from several threads at once when the
    /// pass runs on functions in parallel.
    using ReportHandler = ::std::function<void(::llvm::StringRef)>;
    void setReportHandler(ReportHandler handler) {
      reportHandler = ::std::move(handler);
    }
    const ReportHandler &getReportHandler() const { return reportHandler; }

    /// Adds patterns to the canonicalization patterns amp contributes to
    /// `--canonicalize` (amp's exact cast folding, added by
    /// amp::registerCastFoldingCanonicalization: the dialect library itself
    /// knows no patterns).
    using PatternPopulator = void (*)(::mlir::RewritePatternSet &);
    void addCanonicalizationPatterns(PatternPopulator populate) {
      if (!::llvm::is_contained(canonicalizationPopulators, populate))
        canonicalizationPopulators.push_back(populate);
    }

  private:
    ReportHandler reportHandler;
    ::llvm::SmallVector<PatternPopulator> canonicalizationPopulators;

  public:
  }];
}

#endif // AMP_DIALECT_AMP_AMPBASE_TD
