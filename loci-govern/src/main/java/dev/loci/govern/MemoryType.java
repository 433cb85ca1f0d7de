package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The six memory types of the AtoCore document. {@code identity}, {@code preference} and {@code
 * episodic} are always memories; {@code knowledge}, {@code project} and {@code adaptation} become
 * typed entities once an engineering layer is in use.
 */
public enum MemoryType {
  /** Who the user is: name, employer, role. */
  IDENTITY,
  /** How the user likes things done. */
  PREFERENCE,
  /** What happened, when, to whom. */
  EPISODIC,
  /** A general fact, such as {@code X = value unit}. */
  KNOWLEDGE,
  /** A fact about a project: a requirement, a constraint. */
  PROJECT,
  /** A decision that changes how work is done ("we decided to X"). */
  ADAPTATION;

  /** The name on the wire: {@code identity} etc. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a label.
   *
   * @throws InvalidRequestException naming {@code field} and the six labels
   */
  public static MemoryType of(String text, String field) {
    for (MemoryType t : values()) {
      if (t.label().equals(text)) {
        return t;
      }
    }
    throw new InvalidRequestException(
        field,
        "expected one of "
            + Arrays.stream(values()).map(MemoryType::label).collect(Collectors.joining(", "))
            + ", found '"
            + text
            + "'");
  }
}
