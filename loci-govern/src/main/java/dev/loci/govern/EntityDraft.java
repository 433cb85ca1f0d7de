package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * An entity as a caller or an extractor proposes it, checked before anything is written.
 *
 * @param type its type
 * @param name what it is called, 1 to 200 characters, not blank
 * @param fields its fields: at most 64, names {@code [a-z][a-z0-9_]{0,63}}, values 1 to 4,000
 *     characters
 * @param confidence 0 to 1
 * @param sources its provenance graph, at most 64 sources
 * @param provenance who or which rule proposed it
 * @param graduatedFrom the memory it graduates from, if it does
 * @param subjectIds the people it is about (those of its sources), each checked as every subject id
 *     is
 */
public record EntityDraft(
    EntityType type,
    String name,
    Map<String, String> fields,
    double confidence,
    List<SourceRef> sources,
    Provenance provenance,
    Optional<String> graduatedFrom,
    List<String> subjectIds) {
  private static final Pattern FIELD = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  /**
   * Checks every field.
   *
   * @throws InvalidRequestException naming {@code name}, {@code fields}, {@code confidence} or
   *     {@code sources}
   */
  public EntityDraft {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(provenance, "provenance");
    Objects.requireNonNull(graduatedFrom, "graduatedFrom");
    fields = java.util.Collections.unmodifiableMap(new TreeMap<>(fields));
    sources = List.copyOf(sources);
    subjectIds = List.copyOf(subjectIds);
    dev.loci.SubjectIds.check("subject_ids", subjectIds);
    if (name == null || name.isBlank()) {
      throw new InvalidRequestException("name", "expected the entity's name, found none");
    }
    if (name.length() > 200) {
      throw new InvalidRequestException(
          "name", "expected at most 200 characters, found " + name.length());
    }
    if (fields.size() > 64) {
      throw new InvalidRequestException(
          "fields", "expected at most 64 fields, found " + fields.size());
    }
    fields.forEach(
        (k, v) -> {
          if (!FIELD.matcher(k).matches()) {
            throw new InvalidRequestException(
                "fields", "expected field names of [a-z][a-z0-9_]{0,63}, found '" + k + "'");
          }
          if (v == null || v.isBlank() || v.length() > MemoryDraft.MAX_CONTENT) {
            throw new InvalidRequestException(
                "fields", "expected field '" + k + "' to hold 1 to 4000 characters");
          }
        });
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new InvalidRequestException(
          "confidence", "expected a number from 0 to 1, found " + confidence);
    }
    if (sources.size() > 64) {
      throw new InvalidRequestException(
          "sources", "expected at most 64 sources, found " + sources.size());
    }
  }

  /** A draft about no one. */
  public EntityDraft(
      EntityType type,
      String name,
      Map<String, String> fields,
      double confidence,
      List<SourceRef> sources,
      Provenance provenance,
      Optional<String> graduatedFrom) {
    this(type, name, fields, confidence, sources, provenance, graduatedFrom, List.of());
  }

  /** A draft with confidence 0.5, no sources, written directly by {@code actor}. */
  public static EntityDraft of(
      EntityType type, String name, Map<String, String> fields, String actor) {
    return new EntityDraft(
        type, name, fields, 0.5, List.of(), Provenance.of(actor), Optional.empty());
  }

  /** This draft with {@code confidence}. */
  public EntityDraft withConfidence(double confidence) {
    return new EntityDraft(
        type, name, fields, confidence, sources, provenance, graduatedFrom, subjectIds);
  }

  /** This draft with {@code sources}. */
  public EntityDraft withSources(List<SourceRef> sources) {
    return new EntityDraft(
        type, name, fields, confidence, sources, provenance, graduatedFrom, subjectIds);
  }

  /** This draft about {@code subjectIds}. */
  public EntityDraft withSubjects(List<String> subjectIds) {
    return new EntityDraft(
        type, name, fields, confidence, sources, provenance, graduatedFrom, subjectIds);
  }
}
