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
 *
 * <p>Linear time. Every quantifier of the built-in rules is bounded (an e-mail local part has at
 * most 64 characters, a candidate id at most 64), so each match attempt costs at most a constant
 * and a text costs time in proportion to its length: a megabyte of text that never matches is
 * scanned once, not once per start position. A user's rule may backtrack catastrophically, so every
 * rule runs with a step budget ({@link #STEPS_PER_CHAR} character reads per character of text, plus
 * {@link #STEPS_BASE}): a rule over budget fails the write naming the rule, and a policy whose rule
 * exceeds it on hostile probe texts is refused when it is set.
 */
public final class RedactionPolicy {
  /** The built-in rule for e-mail addresses. */
  public static final Rule EMAIL =
      new Rule(
          "email",
          "[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){0,8}\\.[A-Za-z]{2,24}");

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
          "(?i)\\b(?:candidate[ _-]?id|cand(?:[_-]?id)?)(?![a-z])[\"']?\\s{0,8}[:=#_-]?\\s{0,8}[\"']?"
              + "(?=[\\w-]{0,63}\\d)\\w[\\w-]{2,63}");

  /** Character reads a rule may make per character of the text it redacts. */
  public static final int STEPS_PER_CHAR = 256;

  /** Character reads every rule may make on top of {@link #STEPS_PER_CHAR}. */
  public static final int STEPS_BASE = 65_536;

  private static final List<Rule> BUILT_IN = List.of(EMAIL, PHONE, CANDIDATE_ID);

  private static final RedactionPolicy DEFAULTS =
      new RedactionPolicy(true, List.of(EMAIL, PHONE, CANDIDATE_ID));
  private static final RedactionPolicy OFF = new RedactionPolicy(false, List.of());

  private final boolean enabled;
  private final List<Rule> rules;
  private final List<Pattern> patterns;
  private final boolean traceContent;
  private final boolean nodeContent;

  private RedactionPolicy(boolean enabled, List<Rule> rules) {
    this(enabled, rules, false, false);
  }

  private RedactionPolicy(
      boolean enabled, List<Rule> rules, boolean traceContent, boolean nodeContent) {
    this.enabled = enabled;
    this.rules = List.copyOf(rules);
    this.patterns = this.rules.stream().map(r -> Pattern.compile(r.regex())).toList();
    this.traceContent = traceContent;
    this.nodeContent = nodeContent;
  }

  /**
   * This policy applied beyond the pathway fields too (off by default): to every string value of
   * trace content ({@code traces}; keys and the top-level {@code subject_ids} are left alone) and
   * to the content and attribute values of memory-graph nodes ({@code nodes}). A disabled policy
   * stays disabled.
   */
  public RedactionPolicy withContent(boolean traces, boolean nodes) {
    return enabled ? new RedactionPolicy(true, rules, traces, nodes) : this;
  }

  /** Whether trace content is redacted too. */
  public boolean traceContent() {
    return traceContent;
  }

  /** Whether memory-graph nodes are redacted too. */
  public boolean nodeContent() {
    return nodeContent;
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
    RedactionPolicy policy = new RedactionPolicy(true, rules);
    for (int i = 0; i < rules.size(); i++) {
      RedactionPolicy one = new RedactionPolicy(true, List.of(rules.get(i)));
      for (String probe : PROBES) {
        try {
          one.redact(probe);
        } catch (InvalidRequestException e) {
          throw new InvalidRequestException(
              "rules",
              "rule '"
                  + rules.get(i).name()
                  + "' backtracks without bound (it exceeded its step budget on a hostile test text"
                  + " of "
                  + probe.length()
                  + " characters); bound its quantifiers");
        }
      }
    }
    return policy;
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
      Rule rule = rules.get(i);
      Matcher m;
      List<int[]> windows;
      if (BUILT_IN.contains(rule)) {
        // linear by construction: no budget; and searched only where a match can start
        m = patterns.get(i).matcher(out).useTransparentBounds(true).useAnchoringBounds(false);
        windows = windows(rule, out);
      } else {
        m =
            patterns
                .get(i)
                .matcher(new Budgeted(out, rule.name()))
                .useTransparentBounds(true)
                .useAnchoringBounds(false);
        windows = List.of(new int[] {0, out.length()});
      }
      StringBuilder sb = null;
      int copied = 0;
      for (int[] w : windows) {
        m.region(Math.max(w[0], copied), w[1]);
        while (m.find()) {
          if (sb == null) {
            sb = new StringBuilder(out.length());
          }
          sb.append(out, copied, m.start()).append("[").append(rule.name()).append("]");
          copied = m.end();
          count++;
        }
      }
      if (sb != null) {
        sb.append(out, copied, out.length());
        out = sb.toString();
      }
    }
    return new Redacted(out, count);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RedactionPolicy p
        && enabled == p.enabled
        && rules.equals(p.rules)
        && traceContent == p.traceContent
        && nodeContent == p.nodeContent;
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, rules, traceContent, nodeContent);
  }

  @Override
  public String toString() {
    return enabled
        ? "RedactionPolicy"
            + rules
            + (traceContent ? "+traces" : "")
            + (nodeContent ? "+nodes" : "")
        : "RedactionPolicy[off]";
  }

  /**
   * Where a built-in rule can match in {@code text}, as merged {@code [start, end)} windows found
   * by a plain scan: around each {@code @} for e-mail addresses (64 characters before, 700 after),
   * around each run of digits for phone numbers, and after each "cand" (any case) for candidate
   * ids. A window's ends are only search bounds: the matcher sees past them (transparent bounds),
   * so look-behinds and word boundaries judge the real neighbours.
   */
  private static List<int[]> windows(Rule rule, String text) {
    List<int[]> out = new ArrayList<>();
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      int start;
      int end;
      if (rule.equals(EMAIL) && c == '@') {
        start = i - 64;
        end = i + 700;
      } else if (rule.equals(PHONE) && (c >= '0' && c <= '9' || c == '+' || c == '(')) {
        start = i - 1;
        int j = i;
        while (j < n && "0123456789+()-. \t\n\r\f".indexOf(text.charAt(j)) >= 0) {
          j++;
        }
        end = j + 1;
        i = j - 1; // the run is covered; resume after it
      } else if (rule.equals(CANDIDATE_ID)
          && (c == 'c' || c == 'C')
          && text.regionMatches(true, i, "cand", 0, 4)) {
        start = i;
        end = i + 160;
      } else {
        continue;
      }
      start = Math.max(0, start);
      end = Math.min(n, end);
      int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && start <= last[1]) {
        last[1] = Math.max(last[1], end);
      } else {
        out.add(new int[] {start, end});
      }
    }
    return out;
  }

  /**
   * A text that counts the reads a rule's matcher makes of it and stops the rule once it has made
   * more than its budget: the guard against catastrophic backtracking.
   */
  private static final class Budgeted implements CharSequence {
    private final String text;
    private final String rule;
    private final long budget;
    private long reads;

    Budgeted(String text, String rule) {
      this.text = text;
      this.rule = rule;
      this.budget = (long) STEPS_PER_CHAR * text.length() + STEPS_BASE;
    }

    @Override
    public char charAt(int index) {
      if (++reads > budget) {
        throw new InvalidRequestException(
            "redaction",
            "redaction rule '"
                + rule
                + "' needed more than "
                + budget
                + " steps on a text of "
                + text.length()
                + " characters: it backtracks without bound; fix or remove the rule");
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Texts a rule must redact within its budget before a policy holding it is accepted. */
  private static final List<String> PROBES =
      List.of(
          "a".repeat(4096),
          " ".repeat(4096),
          "1".repeat(4096),
          "a@".repeat(2048),
          "a.".repeat(2048),
          "a-1".repeat(1365),
          "cand-".repeat(800));

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
   * "rules": [{"name": "email", "regex": "..."}]}}, with {@code "trace_content": true} and {@code
   * "node_content": true} when the policy applies to those too.
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
