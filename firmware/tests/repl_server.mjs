// The REPL of a fake Pico for the deploy test: runs code in the real MicroPython (WebAssembly),
// one JSON request per line on stdin, one JSON answer per line on stdout.
//
//   {"exec": "<python code>"}  ->  {"out": "<base64>", "err": "<traceback text or empty>"}
//   {"read": "/path"}          ->  {"data": "<base64>"} or {"error": "..."}
//
// The file system starts with the fakes of ./fakes on sys.path (for `machine.reset`) and the
// current directory /flash, the Pico's root as mpremote sees it.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
let out = [];
const mp = await loadMicroPython({
  linebuffer: false,
  stdout: (bytes) => out.push(Buffer.from(bytes)),
  stderr: (bytes) => out.push(Buffer.from(bytes)),
});
mp.FS.mkdir("/fakes");
for (const name of fs.readdirSync(path.join(here, "fakes"))) {
  mp.FS.writeFile(`/fakes/${name}`, fs.readFileSync(path.join(here, "fakes", name)));
}
mp.FS.mkdir("/flash");
mp.runPython('import os, sys\nsys.path[:0] = ["/fakes"]\nos.chdir("/flash")');

function answer(request) {
  if (request.read !== undefined) {
    try {
      return { data: Buffer.from(mp.FS.readFile(request.read)).toString("base64") };
    } catch (error) {
      return { error: String(error) };
    }
  }
  out = [];
  let err = "";
  try {
    mp.runPython(request.exec);
  } catch (error) {
    // The message is MicroPython's traceback, as the raw REPL would print it.
    err = error.name === "PythonError" ? error.message : String(error);
  }
  return { out: Buffer.concat(out).toString("base64"), err };
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
}
