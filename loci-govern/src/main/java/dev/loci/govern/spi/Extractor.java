package dev.loci.govern.spi;

import java.util.List;

/**
 * Reads a text and proposes memories and entities. The shipped one is rule-based ({@code rules-1});
 * an LLM-backed one plugs in here. An extractor only proposes: the layer records every proposal as
 * a candidate, caps a pass at 50, and nothing it returns is ever trusted without a reviewer.
 * Implementations must be thread-safe and must not keep state between calls.
 */
public interface Extractor {
  /** The version recorded on every candidate it proposes, such as {@code rules-1}. */
  String version();

  /** The proposals for {@code source}, best first; the layer keeps at most 50 per pass. */
  List<Proposal> extract(ExtractionSource source);
}
