// mixed-precision{graph=FILE} draws each function's dataflow with the
// decisions: ops coloured by how they run, the reason as a tooltip, casts
// as red edges labelled with the bytes they write, control flow as
// clusters (or one node per region when a function has more than
// graph-max-nodes ops). The IR the pass prints is the same with or without.
// RUN: amp-opt %s --mixed-precision > %t.plain.mlir
// RUN: amp-opt %s --mixed-precision="graph=%t.dot" > %t.graph.mlir
// RUN: diff %t.plain.mlir %t.graph.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.graph.mlir
// RUN: FileCheck %s --input-file=%t.dot
// RUN: %if graphviz %{ dot -Tsvg %t.dot -o %t.svg %}
// RUN: amp-opt %s --mixed-precision="graph=%t.small.dot graph-max-nodes=3" -o /dev/null
// RUN: FileCheck %s --check-prefix=COLLAPSED --input-file=%t.small.dot
// RUN: not amp-opt %s --mixed-precision="graph=%t.missing/dir/out.dot" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: error: mixed-precision: cannot write graph:

// IR: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x16xf16>, tensor<16x16xf16>)

// CHECK: digraph amp {
// CHECK: subgraph cluster_f0 {
// CHECK-NEXT: label="@block"
// CHECK: f0_arg0 [shape=ellipse, label="arg0\ntensor<8x16xf32>"];
// The matmul runs low (green), exp stays f32 (orange) with its reason:
// CHECK-DAG: [[MM:n[0-9]+]] [label="linalg.matmul\nf16", tooltip="linalg.matmul at mixed-precision-graph.mlir:{{[0-9]+}}:{{[0-9]+}}\nlow (allow, model): contraction{{.*}}", fillcolor="#a9dfa1"];
// CHECK-DAG: [[EXP:n[0-9]+]] [label="math.exp", tooltip="math.exp at {{.*}}\nf32 (never, model): exp overflows f16{{.*}}", fillcolor="#f4a582"];
// The loop is a cluster holding its body:
// CHECK-DAG: subgraph cluster_[[FOR:n[0-9]+]] {
// CHECK-DAG: label="scf.for"; style=dashed;
// The argument is cast to f16 for the matmul: a red edge with its bytes.
// CHECK-DAG: f0_arg0 -> [[MM]] [color="#d62728", penwidth=2, label="truncf 256 B", fontcolor="#d62728", fontsize=9];
// CHECK-DAG: [[MM]] -> [[EXP]];
// CHECK: f0_summary [shape=note, label="{{[0-9]+}} ops drawn, {{[1-9][0-9]*}} casts writing {{.*}}"];
// CHECK: subgraph cluster_legend {
// CHECK: legend0 [label="low", fillcolor="#a9dfa1"];

// COLLAPSED: [[FOR:n[0-9]+]] [label="scf.for\n{{[0-9]+}} ops: {{[0-9]+}} low, {{[0-9]+}} f32", shape=box3d
// COLLAPSED-NOT: subgraph cluster_[[FOR]]

func.func @block(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>, %n: index) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x2 = math.exp %h : tensor<8x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x2) -> (tensor<8x16xf32>) {
    %t = math.tanh %a : tensor<8x16xf32>
    %m = linalg.matmul ins(%t, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %m : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
