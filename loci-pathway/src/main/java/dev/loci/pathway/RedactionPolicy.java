package dev.loci.pathway;

import dev.loci.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How a namespace redacts personal data from {@code reducer_summary} and {@code final_verdict}
 * before a trace is persisted (spec section 6.3). Each match of a rule's pattern is replaced by the
 * typed marker {@code [name]}, and the number of replacements is reported with the write.
 *
 * <p>The policy that applies to a namespace is the one set on it or on its nearest ancestor; with
 * none set, {@link #defaults()} applies, so redaction is on unless someone turns it off. Immutable
 * and thread-safe.
 */
public final class RedactionPolicy {
  /** The built-in rule for e-mail addresses. */
  public static final Rule EMAIL =
      new Rule("email", "[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}");

  /**
   * The built-in rule for phone numbers: an optional {@code +} country code, an area code (in
   * parentheses or followed by a separator), then two groups of 3 or 4 digits. Dotted quads, dates
   * and plain digit runs do not match.
   */
  public static final Rule PHONE =
      new Rule(
          "phone",
          "(?<![\\w.+-])(?:\\+\\d{1,3}[\\s.-]?)?(?:\\(\\d{1,4}\\)[\\s.-]?|\\d{2,4}[\\s.-])"
              + "\\d{3,4}[\\s.-]?\\d{3,4}(?!\\w)(?![.-]\\d)");

  /**
   * The built-in rule for candidate ids: a {@code candidate_id} / {@code cand_id} / {@code cand}
   * label (any case, with {@code _}, {@code -} or a space inside), an optional {@code :}, {@code =}
   * or {@code #}, and a value of 3 or more letters, digits, {@code _} or {@code -} holding a digit.
   * Label and value are replaced together.
   */
  public static final Rule CANDIDATE_ID =
      new Rule(
          "candidate_id",
          "(?i)\\b(?:candidate[ _-]?id|cand(?:[_-]?id)?)(?![a-z])[\"']?\\s*[:=#_-]?\\s*[\"']?"
              + "(?=[\\w-]*\\d)\\w[\\w-]{2,}");

  private static final RedactionPolicy DEFAULTS =
      new RedactionPolicy(true, List.of(EMAIL, PHONE, CANDIDATE_ID));
  private static final RedactionPolicy OFF = new RedactionPolicy(false, List.of());

  private final boolean enabled;
  private final List<Rule> rules;
  private final List<Pattern> patterns;

  private RedactionPolicy(boolean enabled, List<Rule> rules) {
    this.enabled = enabled;
    this.rules = List.copyOf(rules);
    this.patterns = this.rules.stream().map(r -> Pattern.compile(r.regex())).toList();
  }

  /** The built-in policy: e-mail, phone and candidate-id rules, on. */
  public static RedactionPolicy defaults() {
    return DEFAULTS;
  }

  /** No redaction at all. */
  public static RedactionPolicy off() {
    return OFF;
  }

  /**
   * A policy applying {@code rules} in order.
   *
   * @throws InvalidRequestException naming {@code rules} if two rules share a name
   */
  public static RedactionPolicy of(List<Rule> rules) {
    List<String> names = new ArrayList<>();
    for (Rule r : rules) {
      if (names.contains(r.name())) {
        throw new InvalidRequestException(
            "rules", "expected distinct rule names, found '" + r.name() + "' twice");
      }
      names.add(r.name());
    }
    return new RedactionPolicy(true, rules);
  }

  /** Whether the policy redacts anything. */
  public boolean enabled() {
    return enabled;
  }

  /** The rules, applied in order. */
  public List<Rule> rules() {
    return rules;
  }

  /**
   * Redacts {@code text}.
   *
   * @return the redacted text and the number of replacements
   */
  public Redacted redact(String text) {
    if (!enabled || text.isEmpty()) {
      return new Redacted(text, 0);
    }
    String out = text;
    int count = 0;
    for (int i = 0; i < rules.size(); i++) {
      String marker = Matcher.quoteReplacement("[" + rules.get(i).name() + "]");
      Matcher m = patterns.get(i).matcher(out);
      StringBuilder sb = null;
      while (m.find()) {
        if (sb == null) {
          sb = new StringBuilder(out.length());
        }
        m.appendReplacement(sb, marker);
        count++;
      }
      if (sb != null) {
        m.appendTail(sb);
        out = sb.toString();
      }
    }
    return new Redacted(out, count);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RedactionPolicy p && enabled == p.enabled && rules.equals(p.rules);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, rules);
  }

  @Override
  public String toString() {
    return enabled ? "RedactionPolicy" + rules : "RedactionPolicy[off]";
  }

  /**
   * The result of {@link #redact}.
   *
   * @param text the text with every match replaced by its marker
   * @param count how many replacements were made
   */
  public record Redacted(String text, int count) {}

  /**
   * One redaction rule.
   *
   * @param name the marker's label: {@code [name]} replaces each match; lower-case letters, digits
   *     and {@code _}
   * @param regex a {@link Pattern} regular expression
   */
  public record Rule(String name, String regex) {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");

    /**
     * Checks the name and compiles the expression.
     *
     * @throws InvalidRequestException naming {@code name} or {@code regex}
     */
    public Rule {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new InvalidRequestException(
            "name",
            "expected a rule name of lower-case letters, digits and _ (at most 32), found "
                + (name == null ? "none" : "'" + name + "'"));
      }
      if (regex == null || regex.isEmpty()) {
        throw new InvalidRequestException("regex", "expected a regular expression, found none");
      }
      try {
        Pattern p = Pattern.compile(regex);
        if (p.matcher("").matches()) {
          throw new InvalidRequestException(
              "regex", "expected a pattern that cannot match empty text, found '" + regex + "'");
        }
      } catch (PatternSyntaxException e) {
        throw new InvalidRequestException(
            "regex", "expected a valid regular expression, found an error: " + e.getDescription());
      }
    }
  }

  /**
   * The JSON form, as journaled and as the command line and HTTP show it: {@code {"enabled": true,
   * "rules": [{"name": "email", "regex": "..."}]}}.
   */
  public String toJson() {
    return dev.loci.pathway.internal.PathwayLayer.policyToJson(this).toString();
  }

  /**
   * Reads the JSON form: {@code {"enabled": false}} turns redaction off; otherwise {@code rules}
   * lists {@code name} and {@code regex}, where a built-in name with no {@code regex} means the
   * built-in rule.
   *
   * @throws InvalidRequestException naming the field ({@code rules[1].regex}), or {@code policy} if
   *     the text is not JSON
   */
  public static RedactionPolicy fromJson(String json) {
    return dev.loci.pathway.internal.PathwayLayer.policyFromJson(json);
  }
}
