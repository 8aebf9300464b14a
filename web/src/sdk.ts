// The Discord Embedded App SDK, built as a file of its own (web/build.mjs) that web/src/signin.ts imports only
// where the page runs as an Activity (or with the SDK's mock in development and tests).
export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
