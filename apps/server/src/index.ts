export { main, run } from "./Cli.js"
export { MetricsServer, NodeListener, serve, serverLayer } from "./Serve.js"
