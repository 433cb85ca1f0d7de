package dev.loci.govern;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
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
 * @param subjectIds the data subjects it is about (at most 32, each 1-128 characters): the
 *     candidates extracted from it name them too, and erasing a subject erases its text
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
    subjectIds = List.copyOf(subjectIds);
    check(text, speaker);
  }

  /**
   * Checks the subjects of a capture, as memory drafts check theirs.
   *
   * @throws InvalidRequestException naming {@code subject_ids}
   */
  public static void checkSubjects(List<String> subjectIds) {
    MemoryDraft.of(MemoryType.EPISODIC, "check", "check").withSubjects(subjectIds);
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
