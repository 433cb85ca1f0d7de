package dev.loci.spi;

import dev.loci.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Events to append atomically, before the journal gives them a sequence number.
 *
 * @param ts when the command was accepted
 * @param namespace the one namespace all events belong to
 * @param actor who issued the command, for example {@code cli:alice} or {@code token:ingest}
 * @param events at least one event
 */
public record Batch(Instant ts, Namespace namespace, String actor, List<Event> events) {
  /** Checks presence and copies the events. */
  public Batch {
    Objects.requireNonNull(ts, "ts");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(actor, "actor");
    events = List.copyOf(events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException("a batch needs at least one event");
    }
  }
}
