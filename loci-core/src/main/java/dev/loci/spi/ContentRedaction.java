package dev.loci.spi;

import dev.loci.Namespace;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A layer that knows how a namespace redacts personal data from free text (the pathway layer, whose
 * per-namespace redaction policy can be extended from pathway fields to trace content and memory
 * nodes). Other layers ask it, through {@link dev.loci.Redaction}, before they decide a write, so
 * that the text work runs outside the engine's write path.
 */
public interface ContentRedaction {
  /** Free text of a trace's content. */
  String TRACE = "trace";

  /** Free text of a memory-graph node: its content and attribute values. */
  String NODE = "node";

  /**
   * The function that redacts text of records of {@code kind} ({@link #TRACE} or {@link #NODE}) in
   * {@code ns}, or empty when the namespace does not redact that kind. Called with shared access to
   * state; the function returned is applied without it and must be thread-safe and linear in the
   * text's length.
   */
  Optional<UnaryOperator<String>> redactor(Namespace ns, String kind);
}
