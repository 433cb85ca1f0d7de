/**
 * Where a layer plugs its HTTP routes into the server: a {@link dev.loci.server.spi.RouteSet} lists
 * {@link dev.loci.server.spi.Route}s, each declaring its method, path template, the role it
 * requires and how it names a namespace; the server checks credentials, namespaces and body caps
 * before the route's {@link dev.loci.server.spi.Route.Handler} runs, and translates exceptions to
 * problem responses after.
 */
package dev.loci.server.spi;
