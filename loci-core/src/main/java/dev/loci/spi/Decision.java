package dev.loci.spi;

import java.util.List;
import java.util.Set;

/**
 * What a {@link Command} decided.
 *
 * @param events the events to append as one batch, empty if nothing changes
 * @param keys the record ids the decision depends on or changes, in the command's namespace; two
 *     commands sharing a key are never decided in the same round
 * @param result what the command returns to its caller once the events are applied
 */
public record Decision<R>(List<Event> events, Set<String> keys, R result) {
  /** Copies the collections. */
  public Decision {
    events = List.copyOf(events);
    keys = Set.copyOf(keys);
  }
}
