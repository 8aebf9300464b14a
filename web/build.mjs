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

const common = {
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  legalComments: "none",
  write: false,
  outdir: assets,
  absWorkingDir: here,
  logLevel: "warning",
};

// Content-named files: Discord's proxy and browsers may cache them forever; index.html is the only entry.
function named(prefix, file) {
  const ext = file.path.endsWith(".css") ? "css" : "js";
  const hash = createHash("sha256").update(file.contents).digest("hex").slice(0, 10);
  return { name: `${prefix}-${hash}.${ext}`, ext, contents: file.contents };
}

// The Discord SDK (most of the bytes) is a file of its own, built first: the page imports it by its content name
// only where it runs as an Activity (web/src/signin.ts), so a personal link's page neither fetches nor runs it.
const sdk = named("sdk", (await build({ ...common, entryPoints: [join(here, "src", "sdk.ts")] })).outputFiles[0]);
const sdkAsExternal = {
  name: "sdk-as-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/sdk$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: `./${sdk.name}`, external: true } : undefined,
    );
  },
};
const page = await build({ ...common, entryPoints: [join(here, "src", "main.ts")], plugins: [sdkAsExternal] });
const files = [sdk, ...page.outputFiles.map((file) => named("app", file))];

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const entry = {};
for (const { name, ext, contents } of files) {
  writeFileSync(join(assets, name), contents);
  // Compressed beside it, as the server's static files answer a browser that accepts them (aiohttp's
  // FileResponse serves name.br or name.gz): a third of the bytes through Discord's proxy to a phone.
  writeFileSync(join(assets, `${name}.br`), brotliCompressSync(contents, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length },
  }));
  writeFileSync(join(assets, `${name}.gz`), gzipSync(contents, { level: 9 }));
  if (name.startsWith("app-")) entry[ext] = name;
}

const html = readFileSync(join(here, "index.html"), "utf8")
  .replace("%CSS%", `assets/${entry.css}`)
  .replace("%JS%", `assets/${entry.js}`);
writeFileSync(join(out, "index.html"), html);
console.log(`built ${files.map((f) => f.name).join(", ")} into bot/web/static/`);
