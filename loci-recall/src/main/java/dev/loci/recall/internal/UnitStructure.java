package dev.loci.recall.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the markdown packs read in a unit beyond its words: semantic roles, scenario and symbolic
 * tags from declared cue words, the earlier units a conditional unit depends on, and pairs of units
 * of one section that give incompatible rules.
 *
 * <p>Design: everything is cue-based and local, so ingestion stays linear and explainable.
 *
 * <ul>
 *   <li>A unit <b>depends on</b> earlier units when it opens with a condition on their outcome:
 *       {@code if}/{@code when}/{@code where} followed by an outcome word (not, fails, clears,
 *       completes, remains, ...) before the first comma, or {@code after}/{@code once}. The
 *       condition is split at "and" and commas into phrases; each phrase points at the nearest of
 *       the {@value #DEPENDS_REACH} preceding units sharing most of its content words (crudely
 *       stemmed; "fail over" also reads as "failover"), or at the unit it cites as "step N".
 *   <li>Two units of one section <b>contradict</b> when one is an exception to the other and states
 *       a rule of its own (a modal or a negated imperative), or when one prescribes a verb ("must
 *       restart", "Restart ...") and the other forbids the same verb ("must not restart", "do not
 *       restart", "never restart").
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
final class UnitStructure {
  /** How many preceding units a condition may point at. */
  static final int DEPENDS_REACH = 12;

  /** The semantic roles and the cues that give them, in the order they are listed. */
  static final Map<String, Pattern> ROLES =
      cues(
          "obligation", "\\b(?:shall|must|is required to|are required to|is responsible for)\\b",
          "prohibition", "\\b(?:shall not|must not|may not|never|do not)\\b",
          "condition", "^(?:if|when|once|after|where|provided)\\b|\\bprovided that\\b",
          "exception", "^(?:except|notwithstanding)\\b|\\bunless\\b",
          "remedy", "\\b(?:remed\\w*|cure[sd]?|refund\\w*|credit\\w*|replace\\w*|repair\\w*)\\b",
          "escalation", "\\b(?:escalat\\w*|page|pages|paged|phone the|call the)\\b",
          "detection",
              "\\b(?:alert\\w*|detect\\w*|monitor\\w*|confirm\\w*|check\\w*|dashboard\\w*"
                  + "|observe\\w*|verif\\w*)\\b",
          "mitigation",
              "\\b(?:restart\\w*|roll\\s?back\\w*|fail\\s?over\\w*|flush\\w*|drain\\w*"
                  + "|throttl\\w*|switch\\w*|mitigat\\w*)\\b",
          "termination", "\\bterminat\\w*",
          "penalty", "\\b(?:penalt\\w*|liquidated damages|late fees?)\\b",
          "notification", "\\b(?:notif\\w*|notice|inform\\w*)\\b",
          "payment", "\\b(?:pay|pays|paid|payments?|invoices?)\\b");

  /** The symbolic tags and their cues. */
  static final Map<String, Pattern> SYMBOLIC =
      cues(
          "causal",
              "\\b(?:because|causes?|caused|due to|results? in|resulted in|leads? to|so that"
                  + "|therefore|as a result)\\b",
          "escalation", "\\b(?:escalat\\w*|page|pages|paged)\\b",
          "temporal",
              "\\b(?:within|after|before|until|during|while|days?|hours?|minutes?|weeks?"
                  + "|months?|deadline|period)\\b",
          "conditional", "\\b(?:if|unless|provided that|when)\\b",
          "negation", "\\b(?:not|never|no)\\b",
          "deontic", "\\b(?:shall|must|may|should)\\b",
          "quantitative", "\\d");

  /** The contract scenarios and their cues. */
  static final Map<String, Pattern> CONTRACT_SCENARIOS =
      cues(
          "late_delivery", "\\b(?:late|delay\\w*|overdue)\\b",
          "defect", "\\b(?:defect\\w*|nonconform\\w*|damaged)\\b",
          "payment", "\\b(?:invoices?|payments?|pay|paid)\\b",
          "termination", "\\bterminat\\w*",
          "confidentiality", "\\bconfidential\\w*",
          "force_majeure", "\\bforce majeure\\b");

  /** The runbook scenarios and their cues. */
  static final Map<String, Pattern> RUNBOOK_SCENARIOS =
      cues(
          "queue_backlog", "\\b(?:queues?|backlog\\w*)\\b",
          "database", "\\b(?:database\\w*|replica\\w*)\\b",
          "cache", "\\bcaches?\\b",
          "deploy", "\\b(?:deploy\\w*|release\\w*|canary|roll\\s?back\\w*)\\b",
          "gateway", "\\bgateways?\\b",
          "outage", "\\b(?:outages?|unavailable|down)\\b",
          "on_call", "\\b(?:on-call|pag(?:e|es|ed|ing))\\b");

  private static final Pattern CONDITION =
      Pattern.compile("^(if|when|where|once|after)\\s+([^,;:]+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern OUTCOME =
      Pattern.compile(
          "\\b(?:not|fails?|failed|succeeds?|succeeded|clears?|cleared|completes?|completed"
              + "|remains?|stays?|still|finished|done|recovers?|recovered)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern PHRASE_SPLIT =
      Pattern.compile("\\band\\b|\\bthen\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern CITED =
      Pattern.compile("\\b(?:section|clause|step)\\s+(\\d+(?:\\.\\d+)*)", Pattern.CASE_INSENSITIVE);
  private static final Pattern MODAL =
      Pattern.compile(
          "\\b(?:shall|must|may|will|should|never|do not|need not)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern RULE_START = Pattern.compile("[,;:]");
  private static final Pattern PRESCRIBED =
      Pattern.compile("\\b(?:must|shall|should|always)\\s+([a-z]+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern FORBIDDEN =
      Pattern.compile(
          "\\b(?:(?:must|shall|should|may)\\s+not|never|do\\s+not|don't)\\s+([a-z]+)",
          Pattern.CASE_INSENSITIVE);
  private static final Set<String> STOP =
      Set.of(
          "the",
          "a",
          "an",
          "and",
          "or",
          "of",
          "to",
          "in",
          "on",
          "for",
          "with",
          "within",
          "by",
          "does",
          "did",
          "do",
          "not",
          "fail",
          "fails",
          "failed",
          "clear",
          "clears",
          "cleared",
          "is",
          "are",
          "was",
          "were",
          "be",
          "been",
          "has",
          "have",
          "that",
          "this",
          "it",
          "its",
          "still",
          "period",
          "remain",
          "remains",
          "stay",
          "stays",
          "succeed",
          "succeeds",
          "complete",
          "completes",
          "completed",
          "done",
          "finished",
          "recover",
          "recovers",
          "recovered",
          "after",
          "once",
          "when",
          "where",
          "if",
          "than",
          "any",
          "all",
          "their");

  private UnitStructure() {}

  /** One unit as the analysis sees it. */
  record Unit(String id, String number, int sectionIndex, String text) {}

  /** The names of {@code cues} whose pattern {@code text} contains, in declaration order. */
  static List<String> tags(Map<String, Pattern> cues, String text) {
    List<String> out = new ArrayList<>();
    cues.forEach(
        (name, p) -> {
          if (p.matcher(text).find()) {
            out.add(name);
          }
        });
    return out;
  }

  /**
   * The ids of the earlier units {@code units.get(i)} depends on, in the order its condition names
   * them; empty when it opens with no condition on an earlier outcome.
   */
  static List<String> dependsOn(List<Unit> units, int i) {
    Unit u = units.get(i);
    Matcher c = CONDITION.matcher(u.text());
    if (!c.find()) {
      return List.of();
    }
    String cue = c.group(1).toLowerCase(Locale.ROOT);
    String clause = c.group(2);
    if ((cue.equals("if") || cue.equals("when") || cue.equals("where"))
        && !OUTCOME.matcher(clause).find()) {
      return List.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (String phrase : PHRASE_SPLIT.split(clause)) {
      Matcher cited = CITED.matcher(phrase);
      if (cited.find()) {
        for (int j = i - 1; j >= 0; j--) {
          if (cited.group(1).equals(units.get(j).number())) {
            out.add(units.get(j).id());
          }
        }
        continue;
      }
      Set<String> words = stems(phrase, false);
      if (words.isEmpty()) {
        continue;
      }
      int best = 0;
      Optional<String> target = Optional.empty();
      for (int j = i - 1; j >= 0 && j >= i - DEPENDS_REACH; j--) {
        Set<String> theirs = stems(units.get(j).text(), true);
        int shared = (int) words.stream().filter(theirs::contains).count();
        if (shared > best) {
          best = shared;
          target = Optional.of(units.get(j).id());
        }
      }
      target.ifPresent(out::add);
    }
    return List.copyOf(out);
  }

  /**
   * Whether units {@code a} and {@code b} of one section give incompatible rules; {@code exception}
   * is the one of them that is an exception to the other, if either is.
   */
  static boolean contradict(Unit a, Unit b, Optional<Unit> exception) {
    if (a.sectionIndex() != b.sectionIndex()) {
      return false;
    }
    if (exception.isPresent() && MODAL.matcher(rulePart(exception.get().text())).find()) {
      return true;
    }
    return opposed(a.text(), b.text()) || opposed(b.text(), a.text());
  }

  /** What a unit opening with a condition or exception rules: the text after its first comma. */
  private static String rulePart(String text) {
    Matcher m = RULE_START.matcher(text);
    return m.find() ? text.substring(m.end()) : text;
  }

  /** Whether {@code rule} prescribes a verb that {@code other} forbids. */
  private static boolean opposed(String rule, String other) {
    Set<String> forbidden = new LinkedHashSet<>();
    Matcher f = FORBIDDEN.matcher(other);
    while (f.find()) {
      forbidden.add(stem(f.group(1)));
    }
    if (forbidden.isEmpty()) {
      return false;
    }
    Set<String> prescribed = new LinkedHashSet<>();
    Matcher p = PRESCRIBED.matcher(rule);
    while (p.find()) {
      if (!p.group(1).equalsIgnoreCase("not")) {
        prescribed.add(stem(p.group(1)));
      }
    }
    String first = rule.strip().split("[^A-Za-z]+", 2)[0];
    if (!first.isEmpty() && !FORBIDDEN.matcher(rule).lookingAt()) {
      prescribed.add(stem(first));
    }
    prescribed.retainAll(forbidden);
    return !prescribed.isEmpty();
  }

  /**
   * The crude stems of the words of {@code text}: for a condition ({@code unit} false) its content
   * words only; for a unit it may point at, every word and each two adjacent words joined ("fail
   * over" also gives "failover").
   */
  static Set<String> stems(String text, boolean unit) {
    Set<String> out = new LinkedHashSet<>();
    String previous = "";
    for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
      if (w.length() < 3 || (!unit && STOP.contains(w))) {
        previous = "";
        continue;
      }
      out.add(stem(w));
      if (unit && !previous.isEmpty()) {
        out.add(stem(previous + w));
      }
      previous = w;
    }
    return out;
  }

  private static String stem(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    if (w.length() > 5 && w.endsWith("ies")) {
      return w.substring(0, w.length() - 3) + "y";
    }
    for (String suffix : List.of("ing", "ed", "es", "s")) {
      if (w.length() > suffix.length() + 3 && w.endsWith(suffix)) {
        return w.substring(0, w.length() - suffix.length());
      }
    }
    return w;
  }

  /** Name-to-pattern pairs as a map in their order, case-insensitive. */
  static Map<String, Pattern> cues(String... nameAndRegex) {
    Map<String, Pattern> out = new LinkedHashMap<>();
    for (int i = 0; i < nameAndRegex.length; i += 2) {
      out.put(nameAndRegex[i], Pattern.compile(nameAndRegex[i + 1], Pattern.CASE_INSENSITIVE));
    }
    return out;
  }
}
