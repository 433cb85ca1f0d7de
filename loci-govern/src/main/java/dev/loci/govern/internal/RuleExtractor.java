package dev.loci.govern.internal;

import dev.loci.govern.EntityType;
import dev.loci.govern.MemoryType;
import dev.loci.govern.spi.ExtractionSource;
import dev.loci.govern.spi.Extractor;
import dev.loci.govern.spi.Proposal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rule-based extractor ({@code rules-1}): no model, only cues a reader would also act on.
 *
 * <p>Design. The text is read line by line; a Markdown heading or a line ending in a colon naming
 * decisions, constraints or requirements puts the lines under it in that family ({@code
 * decision_heading}, {@code constraint_heading}, {@code requirement_heading}). Other lines are cut
 * into sentences and matched by sentence rules: {@code decision_sentence} ("we decided"), {@code
 * constraint_sentence} ("must not", "shall not"), {@code requirement_sentence} ("must", "shall"),
 * {@code preference_sentence} ("I prefer", "please always"), {@code identity_sentence} ("my name
 * is", "I work at") and {@code fact_value} ("X = value unit"). Each rule has a prior confidence; a
 * bullet adds 0.05, a hedge ("maybe", "I think") takes 0.15, text said within a day adds 0.05 and
 * text older than 30 days takes 0.1 (freshness). Questions propose nothing. Stateless, thread-safe.
 */
public final class RuleExtractor implements Extractor {
  /** The version recorded on every candidate. */
  public static final String VERSION = "rules-1";

  private static final Map<String, Double> PRIOR =
      Map.of(
          "decision_heading", 0.7,
          "constraint_heading", 0.7,
          "requirement_heading", 0.7,
          "decision_sentence", 0.6,
          "constraint_sentence", 0.55,
          "requirement_sentence", 0.5,
          "preference_sentence", 0.6,
          "identity_sentence", 0.65,
          "fact_value", 0.6);

  private static final Pattern HEADING =
      Pattern.compile("^\\s*(?:#{1,6}\\s*(.+?)\\s*#*|([A-Za-z][A-Za-z ]{2,40}):)\\s*$");
  private static final Pattern BULLET = Pattern.compile("^\\s*(?:[-*+•]|\\d+[.)])\\s+");
  private static final Pattern DECISION =
      Pattern.compile(
          "\\b(?:we|i|the team)\\s+(?:have\\s+|had\\s+)?(?:decided|agreed|chose|settled on)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern CONSTRAINT =
      Pattern.compile(
          "\\b(?:must not|mustn't|shall not|shan't|may not|must never|cannot exceed|"
              + "can't exceed|must stay below|no more than)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern REQUIREMENT =
      Pattern.compile(
          "\\b(?:must|shall|is required to|are required to)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern PREFERENCE =
      Pattern.compile(
          "\\b(?:i prefer|i'd prefer|i would prefer|please always|please never|i'd rather|"
              + "i would rather|i always want)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern NAME =
      Pattern.compile("\\bmy name is\\s+([\\p{L}][\\p{L} .'-]{0,60})", Pattern.CASE_INSENSITIVE);
  private static final Pattern WORK =
      Pattern.compile(
          "\\bi work (?:at|for)\\s+([\\p{L}0-9][\\p{L}0-9 &.'-]{0,60})", Pattern.CASE_INSENSITIVE);
  private static final Pattern FACT =
      Pattern.compile(
          "^(?:the\\s+)?([A-Za-z][A-Za-z0-9 _-]{0,60}?)\\s*(?:=|:|\\bis\\b)\\s*"
              + "([-+]?\\d+(?:[.,]\\d+)?)\\s*([A-Za-zµ°%][A-Za-z0-9µ°%/·^-]{0,15})?$");
  private static final Pattern HEDGE =
      Pattern.compile(
          "\\b(?:maybe|perhaps|might|i think|probably|not sure)\\b", Pattern.CASE_INSENSITIVE);

  @Override
  public String version() {
    return VERSION;
  }

  @Override
  public List<Proposal> extract(ExtractionSource src) {
    List<Proposal> out = new ArrayList<>();
    double fresh = freshness(src);
    String family = null;
    for (String raw : src.text().split("\\R")) {
      Matcher h = HEADING.matcher(raw);
      if (h.matches()) {
        family = family(h.group(1) != null ? h.group(1) : h.group(2));
        continue;
      }
      if (raw.isBlank()) {
        continue;
      }
      double structure = BULLET.matcher(raw).find() ? 0.05 : 0.0;
      String line = BULLET.matcher(raw).replaceFirst("").strip();
      if (family != null && !line.endsWith("?")) {
        statement(out, src, family + "_heading", family, line, structure + fresh);
        continue;
      }
      for (String sentence : line.split("(?<=[.!?])\\s+")) {
        sentence(out, src, sentence.strip(), structure + fresh);
      }
    }
    return out;
  }

  private static void sentence(List<Proposal> out, ExtractionSource src, String s, double adjust) {
    if (s.isEmpty() || s.endsWith("?")) {
      return;
    }
    String plain = s.replaceAll("[.!]+$", "");
    if (DECISION.matcher(s).find()) {
      statement(out, src, "decision_sentence", "decision", plain, adjust);
    } else if (CONSTRAINT.matcher(s).find()) {
      statement(out, src, "constraint_sentence", "constraint", plain, adjust);
    } else if (REQUIREMENT.matcher(s).find()) {
      statement(out, src, "requirement_sentence", "requirement", plain, adjust);
    }
    if (PREFERENCE.matcher(s).find() && src.target().memories()) {
      out.add(
          new Proposal.OfMemory(
              "preference_sentence",
              confidence("preference_sentence", s, adjust),
              MemoryType.PREFERENCE,
              plain,
              Optional.empty()));
    }
    identity(out, src, s, NAME, "name", adjust);
    identity(out, src, s, WORK, "employer", adjust);
    Matcher f = FACT.matcher(plain);
    if (f.matches() && (plain.contains("=") || f.group(3) != null)) {
      String name = f.group(1).strip();
      String value = f.group(2) + (f.group(3) == null ? "" : " " + f.group(3));
      double c = confidence("fact_value", s, adjust);
      if (src.target().memories()) {
        out.add(
            new Proposal.OfMemory(
                "fact_value",
                c,
                MemoryType.KNOWLEDGE,
                name + " = " + value,
                Optional.of(slug(name))));
      }
      if (src.target().entities()) {
        EntityType type = f.group(3) == null ? EntityType.FACT : EntityType.PARAMETER;
        out.add(new Proposal.OfEntity("fact_value", c, type, name, Map.of("value", value)));
      }
    }
  }

  private static void identity(
      List<Proposal> out, ExtractionSource src, String s, Pattern p, String slot, double adjust) {
    Matcher m = p.matcher(s);
    if (m.find() && src.target().memories()) {
      String value = m.group(1).replaceAll("[.!]+$", "").strip();
      out.add(
          new Proposal.OfMemory(
              "identity_sentence",
              confidence("identity_sentence", s, adjust),
              MemoryType.IDENTITY,
              (slot.equals("name") ? "Name: " : "Works at: ") + value,
              Optional.of(slot)));
    }
  }

  /** A decision, constraint or requirement statement, as a memory and as an entity. */
  private static void statement(
      List<Proposal> out,
      ExtractionSource src,
      String rule,
      String family,
      String text,
      double adjust) {
    double c = confidence(rule, text, adjust);
    if (src.target().memories()) {
      MemoryType type = family.equals("decision") ? MemoryType.ADAPTATION : MemoryType.PROJECT;
      out.add(new Proposal.OfMemory(rule, c, type, text, Optional.empty()));
    }
    if (src.target().entities()) {
      EntityType type = EntityType.of(family, "type");
      out.add(new Proposal.OfEntity(rule, c, type, name(text), Map.of("statement", text)));
    }
  }

  private static String family(String heading) {
    String h = heading.toLowerCase(Locale.ROOT);
    if (h.startsWith("decision")) {
      return "decision";
    }
    if (h.startsWith("constraint")) {
      return "constraint";
    }
    if (h.startsWith("requirement")) {
      return "requirement";
    }
    return null;
  }

  private static double confidence(String rule, String text, double adjust) {
    double c = PRIOR.get(rule) + adjust - (HEDGE.matcher(text).find() ? 0.15 : 0.0);
    return Math.round(Math.max(0.05, Math.min(0.95, c)) * 1000) / 1000.0;
  }

  private static double freshness(ExtractionSource src) {
    Duration age = Duration.between(src.said(), src.now()).abs();
    if (age.compareTo(Duration.ofDays(1)) <= 0) {
      return 0.05;
    }
    return age.compareTo(Duration.ofDays(30)) > 0 ? -0.1 : 0.0;
  }

  /** An entity name for a statement: its first 120 characters, cut at a word. */
  static String name(String text) {
    if (text.length() <= 120) {
      return text;
    }
    int cut = text.lastIndexOf(' ', 120);
    return text.substring(0, cut > 40 ? cut : 120);
  }

  /**
   * A name as a slot and cross-layer key: lower case, runs of other characters as one {@code _}.
   */
  static String slug(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }
}
