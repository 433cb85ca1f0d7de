package dev.loci.server.spi;

import java.util.List;

/**
 * The HTTP routes of one layer (traces, pathways, ...). Every route must also be documented in the
 * server's OpenAPI document; a test checks that. Implementations are immutable and thread-safe.
 */
@FunctionalInterface
public interface RouteSet {
  /** The routes, in registration order. */
  List<Route> routes();
}
