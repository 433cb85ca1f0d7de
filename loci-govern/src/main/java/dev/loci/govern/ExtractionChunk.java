package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One chunk of an ingestion wave, as extraction reads it.
 *
 * @param id the chunk's id (recorded as each candidate's source chunk)
 * @param document the document it belongs to, if known
 * @param text its text, 1 to 20,000 characters
 * @param subjectIds the people its text is about (its document's subjects); the candidates
 *     extracted from it name them too
 */
public record ExtractionChunk(
    String id, Optional<String> document, String text, List<String> subjectIds) {
  /**
   * Checks every field.
   *
   * @throws InvalidRequestException naming {@code chunks}
   */
  public ExtractionChunk {
    Objects.requireNonNull(document, "document");
    subjectIds = List.copyOf(subjectIds);
    dev.loci.SubjectIds.check("chunks", subjectIds);
    if (id == null || id.isBlank() || id.length() > 256) {
      throw new InvalidRequestException("chunks", "expected each chunk's id, 1-256 characters");
    }
    if (text == null || text.isBlank() || text.length() > Interaction.MAX_TEXT) {
      throw new InvalidRequestException(
          "chunks",
          "expected chunk '" + id + "' to hold 1 to " + Interaction.MAX_TEXT + " characters");
    }
  }

  /** A chunk about no one. */
  public ExtractionChunk(String id, Optional<String> document, String text) {
    this(id, document, text, List.of());
  }
}
