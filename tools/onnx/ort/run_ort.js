// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Runs an ONNX model with ONNX Runtime's CPU provider (onnxruntime-node), the
// f32 reference for models imported by amp.onnx.
//
//   node run_ort.js MODEL.onnx IO.json
//
// IO.json: {"inputs": [{"name", "dtype", "shape", "file"}], "outdir": DIR}.
// Each input file holds the tensor's raw little-endian bytes. Every model
// output is written to DIR/<index>.bin, and DIR/outputs.json lists
// {"name", "dtype", "shape", "file"} for each. Driven by tools/onnx/reference.py.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const TYPED = {
  float32: Float32Array, int64: BigInt64Array, int32: Int32Array,
  uint8: Uint8Array, int8: Int8Array, bool: Uint8Array, float64: Float64Array,
};

async function main() {
  const [model, ioFile] = process.argv.slice(2);
  const io = JSON.parse(fs.readFileSync(ioFile, 'utf8'));
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
  });
  const feeds = {};
  for (const inp of io.inputs) {
    const buf = fs.readFileSync(inp.file);
    const Typed = TYPED[inp.dtype];
    if (!Typed) throw new Error(`input ${inp.name}: dtype ${inp.dtype} is not supported`);
    const data = new Typed(buf.buffer, buf.byteOffset, buf.byteLength / Typed.BYTES_PER_ELEMENT);
    feeds[inp.name] = new ort.Tensor(inp.dtype, data.slice(), inp.shape);
  }
  const results = await session.run(feeds);
  const listing = [];
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    const file = path.join(io.outdir, `${i}.bin`);
    const data = t.data;
    fs.writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    listing.push({name, dtype: t.type, shape: t.dims.map(Number), file});
  });
  fs.writeFileSync(path.join(io.outdir, 'outputs.json'), JSON.stringify(listing));
}

main().catch((e) => { console.error(`run_ort: ${e.message || e}`); process.exit(1); });
