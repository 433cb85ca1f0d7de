package dev.loci.recall;

import java.util.Locale;
import java.util.Map;

/**
 * The ten link types of the memory palace, and how the edge types of the recall graph map onto
 * them. An edge type that is a link type's name maps to it; the packs' own types map to the
 * nearest: {@code next_unit}, {@code next_turn} and {@code escalates_to} to {@link #NEXT}, {@code
 * same_section} and {@code same_session} to {@link #PART_OF}, {@code references} (and any type not
 * listed) to {@link #RECALLS}.
 */
public enum LinkType {
  /** The memory that follows. */
  NEXT,
  /** Belongs to a larger whole. */
  PART_OF,
  /** Conditioned on the outcome of another. */
  DEPENDS_ON,
  /** Qualifies another's rule. */
  EXCEPTION_TO,
  /** Gives an incompatible rule for the same case. */
  CONTRADICTS,
  /** Brings another about. */
  CAUSES,
  /** Brings another to mind (a citation, an association). */
  RECALLS,
  /** A semantic memory that sums up episodic ones. */
  SUMMARIZES,
  /** Placed in a palace space. */
  LOCATED_IN,
  /** A route's way to one of its steps. */
  ROUTE_TO;

  private static final Map<String, LinkType> ALIASES =
      Map.of(
          "next_unit", NEXT,
          "next_turn", NEXT,
          "escalates_to", NEXT,
          "same_section", PART_OF,
          "same_session", PART_OF,
          "references", RECALLS);

  /** The lower snake_case name used on the wire and as an edge type. */
  @com.fasterxml.jackson.annotation.JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The link type an edge of {@code edgeType} stands for. */
  public static LinkType ofEdgeType(String edgeType) {
    for (LinkType t : values()) {
      if (t.wireName().equals(edgeType)) {
        return t;
      }
    }
    return ALIASES.getOrDefault(edgeType, RECALLS);
  }

  @Override
  public String toString() {
    return wireName();
  }
}
