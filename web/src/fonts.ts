// The pictures' Japanese font, served by the map server from the Python package (render/fonts): the board's
// drawing names it, and the page's own words fall back to it for Japanese characters, so a host or a phone
// without a CJK font still shows Japanese, not boxes. Only fetched when a Japanese character is drawn.
const FAMILY = "TTR Noto Sans JP";
const CJK = "U+3000-30FF, U+3400-4DBF, U+4E00-9FFF, U+FF00-FFEF";

export function addPackagedFonts(): void {
  if (!("fonts" in document) || typeof FontFace === "undefined") return;
  for (const [weight, file] of [
    ["400", "TTRNotoSansJP-Regular.otf"],
    ["700", "TTRNotoSansJP-Bold.otf"],
  ]) {
    document.fonts.add(new FontFace(FAMILY, `url(fonts/${file})`, { weight, unicodeRange: CJK }));
  }
}
