package dev.loci.recall;

import java.util.Objects;
import java.util.Optional;

/**
 * A place memories are located in: a document, one of its sections, a conversation session, or a
 * space a node names in its {@code space} attribute. Spaces nest: a section's parent is its
 * document.
 *
 * <p>Ids are stable and readable: {@code <file stem>} for a document, {@code <file stem>:<section
 * slug>} for a section (for example {@code 02_payments_runbook:escalation}), the session id for a
 * conversation session.
 *
 * @param id the space id
 * @param kind {@code document}, {@code section}, {@code session} or {@code topic}
 * @param title what people call it (the heading, the session, the file)
 * @param parent the space it is nested in, if any
 * @param memoryCount how many live memories are located in it (not counting nested spaces)
 */
public record PalaceSpace(
    String id, String kind, String title, Optional<String> parent, int memoryCount) {
  /** Checks presence. */
  public PalaceSpace {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(parent, "parent");
  }
}
