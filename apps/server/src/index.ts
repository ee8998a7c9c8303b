export { main, run } from "./Cli.js"
export { MetricsServer, serve, serverLayer } from "./Serve.js"
