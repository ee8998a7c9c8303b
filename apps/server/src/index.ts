export { main, run } from "./Cli.js"
export { serve, serverLayer } from "./Serve.js"
