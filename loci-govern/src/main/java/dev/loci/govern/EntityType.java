package dev.loci.govern;

/**
 * The typed engineering facts of the AtoCore document: the canonical home of what the {@code
 * project}, {@code knowledge} and {@code adaptation} memory types hold once entities are in use.
 */
public enum EntityType {
  /** What a system must do ("the pump shall deliver 40 l/min"). */
  REQUIREMENT,
  /** A limit a design must respect ("must not exceed 80 dB"). */
  CONSTRAINT,
  /** A choice that was made, and why ("we decided to use GF-PTFE pads"). */
  DECISION,
  /** A stated truth about the world or the design. */
  FACT,
  /** A named value with a unit ("rated pressure = 16 bar"). */
  PARAMETER,
  /** A part of the system that others belong to or depend on. */
  SUBSYSTEM;

  /** The name on the wire: {@code requirement} etc. */
  public String label() {
    return Labels.label(this);
  }

  /**
   * Parses a label, in any case ({@code Requirement} or {@code requirement}).
   *
   * @throws dev.loci.InvalidRequestException naming {@code field} and the six labels
   */
  public static EntityType of(String text, String field) {
    return Labels.parse(values(), text, field);
  }
}
