package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A memory as a caller proposes it, checked before anything is written.
 *
 * @param type one of the six types
 * @param content the fact, 1 to 4,000 characters, not blank
 * @param confidence 0 to 1
 * @param slot what it is about, for conflict detection (1-128 characters of {@code
 *     [A-Za-z0-9_.:-]}), if the caller names one
 * @param subjectIds the data subjects it is about (each 1-128 characters, at most 32)
 * @param provenance where it came from
 */
public record MemoryDraft(
    MemoryType type,
    String content,
    double confidence,
    Optional<String> slot,
    List<String> subjectIds,
    Provenance provenance) {
  /** The most characters of content. */
  public static final int MAX_CONTENT = 4_000;

  private static final Pattern SLOT = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

  /**
   * Checks every field.
   *
   * @throws InvalidRequestException naming {@code content}, {@code confidence}, {@code slot} or
   *     {@code subject_ids}
   */
  public MemoryDraft {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(slot, "slot");
    Objects.requireNonNull(provenance, "provenance");
    subjectIds = dev.loci.SubjectIds.check("subject_ids", subjectIds);
    if (content == null || content.isBlank()) {
      throw new InvalidRequestException("content", "expected the memory's text, found none");
    }
    if (content.length() > MAX_CONTENT) {
      throw new InvalidRequestException(
          "content", "expected at most " + MAX_CONTENT + " characters, found " + content.length());
    }
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new InvalidRequestException(
          "confidence", "expected a number from 0 to 1, found " + confidence);
    }
    if (slot.isPresent() && !SLOT.matcher(slot.get()).matches()) {
      throw new InvalidRequestException(
          "slot", "expected 1-128 characters of [A-Za-z0-9_.:-], found '" + slot.get() + "'");
    }
  }

  /** A draft with confidence 0.5, no slot, no subjects, written directly by {@code actor}. */
  public static MemoryDraft of(MemoryType type, String content, String actor) {
    return new MemoryDraft(type, content, 0.5, Optional.empty(), List.of(), Provenance.of(actor));
  }

  /** This draft with {@code slot}. */
  public MemoryDraft withSlot(String slot) {
    return new MemoryDraft(type, content, confidence, Optional.of(slot), subjectIds, provenance);
  }

  /** This draft with {@code confidence}. */
  public MemoryDraft withConfidence(double confidence) {
    return new MemoryDraft(type, content, confidence, slot, subjectIds, provenance);
  }

  /** This draft about {@code subjectIds}. */
  public MemoryDraft withSubjects(List<String> subjectIds) {
    return new MemoryDraft(type, content, confidence, slot, subjectIds, provenance);
  }
}
