package dev.loci.mcp.internal;

import java.util.Objects;
import java.util.Optional;

/**
 * A refusal that is not one of Loci's domain exceptions, such as a role or namespace the caller is
 * not granted. Answered as a tool error; nothing was written.
 */
public final class ToolError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String type;
  private final Optional<String> field;

  /**
   * Creates a refusal.
   *
   * @param type a stable kind, such as {@code forbidden}
   * @param field the argument at fault, if one
   * @param detail what happened and what was expected
   */
  public ToolError(String type, Optional<String> field, String detail) {
    super(detail);
    this.type = Objects.requireNonNull(type, "type");
    this.field = Objects.requireNonNull(field, "field");
  }

  /** A refusal of what the caller's credential does not allow. */
  public static ToolError forbidden(Optional<String> field, String detail) {
    return new ToolError("forbidden", field, detail);
  }

  /** The stable kind of refusal. */
  public String type() {
    return type;
  }

  /** The argument at fault, if one. */
  public Optional<String> field() {
    return field;
  }
}
