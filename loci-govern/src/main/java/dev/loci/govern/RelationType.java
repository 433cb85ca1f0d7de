package dev.loci.govern;

/** How one entity relates to another; each names the direction from the source entity. */
public enum RelationType {
  /** The source is a part of the target subsystem. */
  PART_OF,
  /** The source needs the target. */
  DEPENDS_ON,
  /** The source (a constraint) limits the target. */
  CONSTRAINS,
  /** The source (a decision, a subsystem) satisfies the target requirement. */
  SATISFIES,
  /** The source makes the target more precise. */
  REFINES,
  /** The source was derived from the target. */
  DERIVED_FROM,
  /** The source (a fact, a parameter) is evidence for the target. */
  SUPPORTS,
  /** The source contradicts the target. */
  CONTRADICTS,
  /** Any other link worth keeping. */
  RELATES_TO;

  /** The name on the wire: {@code part_of} etc. */
  public String label() {
    return Labels.label(this);
  }

  /**
   * Parses a label.
   *
   * @throws dev.loci.InvalidRequestException naming {@code field} and the labels
   */
  public static RelationType of(String text, String field) {
    return Labels.parse(values(), text, field);
  }
}
