// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Times an ONNX model on ONNX Runtime's CPU provider (onnxruntime-node from
// tools/onnx/ort, found through NODE_PATH), for bench/speed/run.py.
//
//   node time_ort.js MODEL.onnx INPUT.bin DTYPE SHAPE(comma-separated)
//        THREADS REPEAT
//
// One input of raw little-endian bytes. One warm-up run, then REPEAT timed
// runs of session.run; prints "time: min X ms, median Y ms (N runs)" as
// amp-run --repeat does. THREADS is ORT's intra-op thread count (inter-op
// 1, sequential execution).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, file, dtype, shapeText, threads, repeat] = process.argv.slice(2);
  if (dtype !== 'float32') throw new Error(`dtype ${dtype} is not supported`);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
  });
  const buf = fs.readFileSync(file);
  const data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4).slice();
  const shape = shapeText.split(',').map(Number);
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  await session.run(feeds);
  const times = [];
  for (let i = 0; i < Number(repeat); ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)];
  console.log(`time: min ${times[0].toFixed(3)} ms, median ${median.toFixed(3)} ms (${times.length} runs)`);
}

main().catch((e) => { console.error(`time_ort: ${e.message || e}`); process.exit(1); });
