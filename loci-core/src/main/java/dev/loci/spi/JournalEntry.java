package dev.loci.spi;

import dev.loci.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A committed batch as read back from the journal.
 *
 * @param seq the batch's sequence number, one more than the batch before it
 * @param ts when the command was accepted
 * @param namespace the namespace of all events
 * @param actor who issued the command
 * @param events the events, in the order they are applied
 */
public record JournalEntry(
    long seq, Instant ts, Namespace namespace, String actor, List<Event> events) {
  /** Checks presence and copies the events. */
  public JournalEntry {
    Objects.requireNonNull(ts, "ts");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(actor, "actor");
    events = List.copyOf(events);
  }

  /** The entry a batch becomes once it has sequence number {@code seq}. */
  public static JournalEntry of(long seq, Batch batch) {
    return new JournalEntry(seq, batch.ts(), batch.namespace(), batch.actor(), batch.events());
  }
}
