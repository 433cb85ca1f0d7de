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
 * most 64 characters, a candidate id at most 64), so each match attempt costs at most a constant,
 * and a built-in rule is tried only where one of its matches can begin: an e-mail address is found
 * from its {@code @} (the local part is read backwards, the domain matched forwards), a phone
 * number at a {@code +}, {@code (} or digit that its look-behind allows, a candidate id at a
 * "cand". A text costs one plain scan per rule plus a bounded attempt per such place, as {@code
 * RedactionTest} checks against a full regex scan. A user's rule may backtrack catastrophically, so
 * every rule runs with a step budget ({@link #STEPS_PER_CHAR} character reads per character of
 * text, plus {@link #STEPS_BASE}): a rule over budget fails the write naming the rule, and a policy
 * whose rule exceeds it on hostile probe texts is refused when it is set.
 */
public final class RedactionPolicy {
  /** What follows the {@code @} of an e-mail address: the domain part of {@link #EMAIL}. */
  private static final String EMAIL_DOMAIN =
      "[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){0,8}\\.[A-Za-z]{2,24}";

  /** The built-in rule for e-mail addresses. */
  public static final Rule EMAIL = new Rule("email", "[A-Za-z0-9._%+-]{1,64}@" + EMAIL_DOMAIN);

  private static final Pattern EMAIL_DOMAIN_PATTERN = Pattern.compile(EMAIL_DOMAIN);

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
      List<int[]> matches =
          BUILT_IN.contains(rule)
              ? builtInMatches(rule, patterns.get(i), out)
              : budgetedMatches(rule, patterns.get(i), out);
      if (matches.isEmpty()) {
        continue;
      }
      StringBuilder sb = new StringBuilder(out.length());
      int copied = 0;
      for (int[] m : matches) {
        sb.append(out, copied, m[0]).append('[').append(rule.name()).append(']');
        copied = m[1];
      }
      sb.append(out, copied, out.length());
      out = sb.toString();
      count += matches.size();
    }
    return new Redacted(out, count);
  }

  /** The {@code [start, end)} matches of a user's rule, left to right, within its step budget. */
  private static List<int[]> budgetedMatches(Rule rule, Pattern pattern, String text) {
    Matcher m = pattern.matcher(new Budgeted(text, rule.name()));
    List<int[]> out = new ArrayList<>();
    while (m.find()) {
      out.add(new int[] {m.start(), m.end()});
    }
    return out;
  }

  /**
   * The matches of a built-in rule, left to right and not overlapping, exactly as {@link
   * Matcher#find()} over the whole text finds them, but tried only at the places where a match can
   * begin (see the class comment). The matcher sees the whole text (transparent bounds), so
   * look-arounds and word boundaries judge the real neighbours of each place.
   */
  private static List<int[]> builtInMatches(Rule rule, Pattern pattern, String text) {
    List<int[]> out = new ArrayList<>();
    int n = text.length();
    Matcher m = pattern.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
    if (rule.equals(EMAIL)) {
      // a local part is a run of local characters ending at the '@' (the '@' is not one of them),
      // so a match starting anywhere in the run needs that run to be at most 64 long from there;
      // the leftmost such start wins, and the domain is what the rule matches after the '@'
      Matcher domain =
          EMAIL_DOMAIN_PATTERN.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
      int from = 0;
      for (int at = text.indexOf('@'); at >= 0; at = text.indexOf('@', Math.max(at + 1, from))) {
        int start = at;
        int floor = Math.max(from, at - 64);
        while (start > floor && emailLocal(text.charAt(start - 1))) {
          start--;
        }
        if (start == at) {
          continue;
        }
        domain.region(at + 1, n);
        if (domain.lookingAt()) {
          out.add(new int[] {start, domain.end()});
          from = domain.end();
        }
      }
    } else if (rule.equals(PHONE)) {
      for (int i = 0; i < n; i++) {
        char c = text.charAt(i);
        // a match begins with '+', '(' or a digit, where (?<![\w.+-]) allows it
        if (!(c >= '0' && c <= '9' || c == '+' || c == '(')
            || i > 0 && phoneBlocked(text.charAt(i - 1))) {
          continue;
        }
        m.region(i, n);
        if (m.lookingAt()) {
          out.add(new int[] {i, m.end()});
          i = m.end() - 1;
        }
      }
    } else {
      // CANDIDATE_ID: every alternative begins with "cand", ASCII letters in any case
      for (int i = 0; i + 4 <= n; i++) {
        char c = text.charAt(i);
        if (c != 'c' && c != 'C' || !text.regionMatches(true, i, "cand", 0, 4)) {
          continue;
        }
        m.region(i, n);
        if (m.lookingAt()) {
          out.add(new int[] {i, m.end()});
          i = m.end() - 1;
        }
      }
    }
    return out;
  }

  /** Whether {@code c} may be in an e-mail local part: {@code [A-Za-z0-9._%+-]}. */
  private static boolean emailLocal(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '.'
        || c == '_'
        || c == '%'
        || c == '+'
        || c == '-';
  }

  /** Whether a phone number may not begin after {@code c}: {@code [\\w.+-]}, ASCII. */
  private static boolean phoneBlocked(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '_'
        || c == '.'
        || c == '+'
        || c == '-';
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
    return dev.loci.pathway.internal.RedactionPolicyJson.toJson(this).toString();
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
    return dev.loci.pathway.internal.RedactionPolicyJson.fromJson(json);
  }
}
