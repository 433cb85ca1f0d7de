package dev.loci.govern.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The text an extractor reads and where it came from.
 *
 * @param text what was said or written
 * @param interaction the captured interaction's id, if the text is one
 * @param chunk the ingested chunk's id, if the text is one
 * @param document the document the chunk belongs to, if known
 * @param said when the text was said or written (freshness is measured from it)
 * @param now when the pass runs
 * @param target what to propose
 */
public record ExtractionSource(
    String text,
    Optional<String> interaction,
    Optional<String> chunk,
    Optional<String> document,
    Instant said,
    Instant now,
    ExtractionTarget target) {
  /** Checks presence. */
  public ExtractionSource {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(interaction, "interaction");
    Objects.requireNonNull(chunk, "chunk");
    Objects.requireNonNull(document, "document");
    Objects.requireNonNull(said, "said");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(target, "target");
  }
}
