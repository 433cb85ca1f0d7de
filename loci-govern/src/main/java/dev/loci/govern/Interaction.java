package dev.loci.govern;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.SubjectIds;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A captured exchange with an agent (the AtoCore layer 0 source): what was said, by whom, when. It
 * is kept so every candidate extracted from it can point back at it.
 *
 * @param id its id (UUID v7)
 * @param namespace where it was captured
 * @param text what was said, 1 to 20,000 characters
 * @param speaker who said it, 1 to 128 characters
 * @param said when it was said
 * @param capturedBy who captured it
 * @param capturedAt when it was captured
 * @param subjectIds the data subjects (people) the exchange is about: the subject layer lists it in
 *     their manifests and erasure erases its text and speaker; memory candidates extracted from it
 *     name them too
 */
public record Interaction(
    String id,
    Namespace namespace,
    String text,
    String speaker,
    Instant said,
    String capturedBy,
    Instant capturedAt,
    List<String> subjectIds) {
  /** The most characters of an interaction's text. */
  public static final int MAX_TEXT = 20_000;

  /**
   * Checks every field.
   *
   * @throws InvalidRequestException naming {@code text} or {@code speaker}
   */
  public Interaction {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(said, "said");
    Objects.requireNonNull(capturedBy, "capturedBy");
    Objects.requireNonNull(capturedAt, "capturedAt");
    check(text, speaker);
    subjectIds = SubjectIds.check("subject_ids", subjectIds);
  }

  /** An interaction about no data subject. */
  public Interaction(
      String id,
      Namespace namespace,
      String text,
      String speaker,
      Instant said,
      String capturedBy,
      Instant capturedAt) {
    this(id, namespace, text, speaker, said, capturedBy, capturedAt, List.of());
  }

  /**
   * Checks a text and speaker as {@code POST interactions} takes them.
   *
   * @throws InvalidRequestException naming {@code text} or {@code speaker}
   */
  public static void check(String text, String speaker) {
    if (text == null || text.isBlank()) {
      throw new InvalidRequestException("text", "expected what was said, found none");
    }
    if (text.length() > MAX_TEXT) {
      throw new InvalidRequestException(
          "text", "expected at most " + MAX_TEXT + " characters, found " + text.length());
    }
    if (speaker == null || speaker.isBlank() || speaker.length() > 128) {
      throw new InvalidRequestException(
          "speaker", "expected who said it, 1-128 characters, found '" + speaker + "'");
    }
  }
}
