// Builds the page into ../bot/web/static/ (index.html + assets/), the files the Python package ships.
// The output depends only on the sources and the locked packages (no dates, no absolute paths), so CI can
// rebuild and compare it with the committed files.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "bot", "web", "static");
const assets = join(out, "assets");

const result = await build({
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  legalComments: "none",
  write: false,
  outdir: assets,
  absWorkingDir: here,
  logLevel: "warning",
});

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

// Content-named files: Discord's proxy and browsers may cache them forever; index.html is the only entry.
const named = {};
for (const file of result.outputFiles) {
  const ext = file.path.endsWith(".css") ? "css" : "js";
  const hash = createHash("sha256").update(file.contents).digest("hex").slice(0, 10);
  const name = `app-${hash}.${ext}`;
  writeFileSync(join(assets, name), file.contents);
  // Compressed beside it, as the server's static files answer a browser that accepts them (aiohttp's
  // FileResponse serves name.br or name.gz): a third of the bytes through Discord's proxy to a phone.
  writeFileSync(join(assets, `${name}.br`), brotliCompressSync(file.contents, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: file.contents.length },
  }));
  writeFileSync(join(assets, `${name}.gz`), gzipSync(file.contents, { level: 9 }));
  named[ext] = name;
}

const html = readFileSync(join(here, "index.html"), "utf8")
  .replace("%CSS%", `assets/${named.css}`)
  .replace("%JS%", `assets/${named.js}`);
writeFileSync(join(out, "index.html"), html);
console.log(`built ${Object.values(named).join(", ")} into bot/web/static/`);
