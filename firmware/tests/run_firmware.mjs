// Runs the firmware in the real MicroPython interpreter (WebAssembly build) with the
// fake `machine` and `time` of ./fakes, playing a scenario's edge train into its pins.
//
//   node run_firmware.mjs --flash DIR --scenario FILE --serial-out FILE --report FILE
//
// DIR holds the files as deployed to the Pico (compiled .mpy modules, main.py,
// pinmap.json). Everything the firmware writes to stdout (its USB serial) goes
// byte for byte to --serial-out; the bench's findings go to --report as JSON.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    flash: { type: "string" },
    scenario: { type: "string" },
    "serial-out": { type: "string" },
    report: { type: "string" },
  },
});
for (const name of ["flash", "scenario", "serial-out", "report"]) {
  if (!args[name]) {
    console.error(`missing --${name}`);
    process.exit(2);
  }
}

const serial = [];
const mp = await loadMicroPython({
  linebuffer: false,
  stdout: (bytes) => serial.push(Buffer.from(bytes)),
  stderr: (bytes) => process.stderr.write(Buffer.from(bytes)),
});

function copyDir(from, to) {
  mp.FS.mkdir(to);
  for (const name of fs.readdirSync(from)) {
    const source = path.join(from, name);
    if (fs.statSync(source).isFile()) mp.FS.writeFile(`${to}/${name}`, fs.readFileSync(source));
  }
}
copyDir(args.flash, "/flash");
copyDir(path.join(here, "fakes"), "/fakes");
mp.FS.writeFile("/scenario.json", fs.readFileSync(args.scenario));

let status = 0;
try {
  mp.runPython(`
import os, sys
sys.path[:0] = ["/fakes", "/flash"]  # fakes first: their time.py shadows the built-in one
os.chdir("/flash")
import bench
bench.run("/scenario.json", "/report.json")
`);
} catch (error) {
  console.error(`MicroPython error: ${error.message}`);
  status = 1;
}
fs.writeFileSync(args["serial-out"], Buffer.concat(serial));
try {
  fs.writeFileSync(args.report, mp.FS.readFile("/report.json"));
} catch {
  status = 1;
}
process.exit(status);
