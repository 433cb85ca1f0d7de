package dev.loci.spi;

import java.time.Instant;

/**
 * The clock reading and id source of one command. Ids and timestamps come from here, are stored in
 * the events, and so replay to the same state.
 */
public interface CommandContext {
  /** When the command was accepted, in microseconds; the same for every call. */
  Instant now();

  /** A new UUID v7 id, increasing across the engine's lifetime. */
  String newId();
}
