package dev.loci.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One record version an event writes, as a {@link SubjectRecords} layer reports it to the subject
 * index.
 *
 * @param kind what the record is, for people reading a manifest ({@code trace}, {@code memory})
 * @param recordId the record's id, unique within its layer and namespace
 * @param version the version the event writes, 1 for a new record; 0 when the event changes the
 *     record without writing a new version of its content (a replay count, a retirement)
 * @param subjectIds the data subjects this version names; empty when it names none
 * @param inheritsFrom a record this one continues (a revision's predecessor): the subjects that one
 *     names are this one's too, since a revision usually repeats what it revises
 */
public record SubjectMention(
    String kind,
    String recordId,
    long version,
    List<String> subjectIds,
    Optional<String> inheritsFrom) {

  /** Checks presence and copies the subject ids. */
  public SubjectMention {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(recordId, "recordId");
    Objects.requireNonNull(inheritsFrom, "inheritsFrom");
    subjectIds = List.copyOf(subjectIds);
  }

  /**
   * The key that names a record across namespaces: {@code <namespace>/<record id>}. Record ids are
   * unique within a namespace and layer, and namespaces hold no {@code /}.
   */
  public static String key(dev.loci.Namespace ns, String recordId) {
    return ns.value() + "/" + recordId;
  }

  /** A mention of a record that neither names subjects itself nor continues another record. */
  public static SubjectMention touch(String kind, String recordId) {
    return new SubjectMention(kind, recordId, 0, List.of(), Optional.empty());
  }
}
