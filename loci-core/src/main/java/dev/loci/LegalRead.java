package dev.loci;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One read made under the legal-tier capability, as the journal recorded it.
 *
 * @param at when the read was made
 * @param namespace the namespace read
 * @param holder the capability's holder (a token id, a person)
 * @param action what was read, for example {@code pathway.list_versions} or {@code trace.history}
 * @param records the ids of the records whose versions were returned
 */
public record LegalRead(
    Instant at, Namespace namespace, String holder, String action, List<String> records) {
  /** Checks presence and copies the list. */
  public LegalRead {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(action, "action");
    records = List.copyOf(records);
  }
}
