package dev.loci.subjects;

import dev.loci.Namespace;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What Loci holds about one data subject, within the namespaces asked about: every record that
 * names the subject (with every version), counts by kind, the namespaces, the policy that applies,
 * the vertical, and whether and when the subject was erased. An erased subject's manifest lists no
 * records and keeps only the fact and time of the erasure.
 *
 * @param subjectId the subject's id, as asked
 * @param records the records that name the subject, in the order they were first written
 * @param policy the subject's own policy
 * @param vertical the vertical that applies: the subject's, else that of a namespace holding its
 *     records
 * @param erasure the erasure, if the subject was erased
 * @param auditEntries how many entries the subject's audit log holds
 */
public record SubjectManifest(
    String subjectId,
    List<HeldRecord> records,
    SubjectPolicy policy,
    Optional<String> vertical,
    Optional<Erasure> erasure,
    long auditEntries) {
  /** Checks presence and copies the records. */
  public SubjectManifest {
    Objects.requireNonNull(subjectId, "subjectId");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(vertical, "vertical");
    Objects.requireNonNull(erasure, "erasure");
    records = List.copyOf(records);
  }

  /** How many records of each kind, by kind name. */
  public SortedMap<String, Integer> countsByKind() {
    SortedMap<String, Integer> counts = new TreeMap<>();
    records.forEach(r -> counts.merge(r.kind(), 1, Integer::sum));
    return counts;
  }

  /** The namespaces that hold the records, sorted. */
  public List<Namespace> namespaces() {
    return records.stream().map(HeldRecord::namespace).distinct().sorted().toList();
  }

  /** The records by the name of the layer that holds them, as erasure needs them. */
  public Map<String, List<HeldRecord>> byLayer() {
    Map<String, List<HeldRecord>> out = new TreeMap<>();
    records.forEach(r -> out.computeIfAbsent(r.layer(), k -> new java.util.ArrayList<>()).add(r));
    return out;
  }
}
