export { main, run } from "./Cli.js"
export { MetricsServer, NodeServer, serve, serverLayer } from "./Serve.js"
