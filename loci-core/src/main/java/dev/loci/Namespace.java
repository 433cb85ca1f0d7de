package dev.loci;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The tenancy unit every record lives in: a dotted path of 1 to 8 labels, each matching {@code
 * [a-z0-9][a-z0-9_-]{0,62}}, for example {@code acme.support.agent-7}.
 *
 * @param value the dotted path
 */
public record Namespace(String value) implements Comparable<Namespace> {
  /** The rule a namespace must follow, as shown in error messages. */
  public static final String RULE =
      "1-8 dot-separated labels, each matching [a-z0-9][a-z0-9_-]{0,62}, e.g. acme.support.agent-7";

  private static final Pattern LABEL = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");
  private static final int MAX_LABELS = 8;

  /** Validates the path; throws {@link InvalidRequestException} naming the rule. */
  public Namespace {
    Objects.requireNonNull(value, "value");
    String problem = problem(value);
    if (problem != null) {
      throw new InvalidRequestException("namespace", problem);
    }
  }

  /**
   * Parses a namespace.
   *
   * @throws InvalidRequestException if {@code value} does not follow {@link #RULE}
   */
  public static Namespace of(String value) {
    return new Namespace(value);
  }

  /** Returns true if this namespace is {@code other} or lies below it. */
  public boolean isWithin(Namespace other) {
    return value.equals(other.value) || value.startsWith(other.value + ".");
  }

  /** Returns the parent namespace if this one has more than one label. */
  public java.util.Optional<Namespace> parent() {
    int dot = value.lastIndexOf('.');
    return dot < 0
        ? java.util.Optional.empty()
        : java.util.Optional.of(new Namespace(value.substring(0, dot)));
  }

  @Override
  public int compareTo(Namespace o) {
    return value.compareTo(o.value);
  }

  @Override
  public String toString() {
    return value;
  }

  private static String problem(String value) {
    if (value.isEmpty()) {
      return "expected " + RULE + ", found an empty string";
    }
    String[] labels = value.split("\\.", -1);
    if (labels.length > MAX_LABELS) {
      return "expected " + RULE + ", found " + labels.length + " labels in '" + shown(value) + "'";
    }
    for (String label : labels) {
      if (!LABEL.matcher(label).matches()) {
        return "expected "
            + RULE
            + ", found label '"
            + shown(label)
            + "' in '"
            + shown(value)
            + "'";
      }
    }
    return null;
  }

  private static String shown(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
