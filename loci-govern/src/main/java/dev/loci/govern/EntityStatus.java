package dev.loci.govern;

/**
 * Where an entity stands: {@code candidate -> active -> superseded | invalid}, the four statuses
 * memories have (an entity never graduates; it is what a memory graduates into).
 */
public enum EntityStatus {
  /** Proposed, waiting in the review queue. */
  CANDIDATE,
  /** Trusted: promoted by a reviewer, or written active by one. */
  ACTIVE,
  /** Replaced by a newer entity; kept as history. */
  SUPERSEDED,
  /** Rejected or invalidated, with a reason; kept as history. */
  INVALID;

  /** The name on the wire. */
  public String label() {
    return Labels.label(this);
  }

  /**
   * Parses a label.
   *
   * @throws dev.loci.InvalidRequestException naming {@code field} and the four labels
   */
  public static EntityStatus of(String text, String field) {
    return Labels.parse(values(), text, field);
  }
}
