package dev.loci;

import java.util.Objects;

/**
 * Content was about to leave the machine (to a remote embedding model, an extractor or LLM) but a
 * policy keeps it local: its namespace or a subject it names belongs to a local-only vertical such
 * as {@code healthcare}. Nothing was sent. The HTTP server answers 403 {@code egress-refused}.
 */
public class EgressRefusedException extends LociException {
  private static final long serialVersionUID = 1L;
  private final String destination;

  /** Creates the refusal of sending to {@code destination}, saying {@code why}. */
  public EgressRefusedException(String destination, String why) {
    super("refused to send content to " + destination + ": " + why);
    this.destination = Objects.requireNonNull(destination, "destination");
  }

  /** Where the content would have gone. */
  public String destination() {
    return destination;
  }
}
