package dev.loci.recall.internal;

import dev.loci.recall.EvidenceRef;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
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
 * The {@code markdown} domain pack, in the flavours {@code contract} and {@code runbook}.
 *
 * <p>Ingestion conventions: a heading ({@code #} to {@code ######}) starts a section. A line
 * starting with a number ({@code 3 text}, {@code 3. text}, {@code 3) text}, also {@code 3.2 text})
 * starts a unit with id {@code <file stem>:<number>}, typed {@code clause} (contract) or {@code
 * step} (runbook); following lines up to a blank line, heading or numbered line continue it. Any
 * other block of lines is a {@code paragraph} with id {@code <file stem>:p<k>}, k counting
 * paragraphs from 1 through the file.
 *
 * <p>Edges: {@code next_unit} from each unit to the next in its section; {@code same_section}
 * between two units of a section at most {@value #SAME_SECTION_REACH} units apart (both ways: a
 * bounded neighbourhood, so a section of n units writes at most 8n such edges, not n²/2); {@code
 * references} to the unit a text cites as "section N", "clause N" or "step N"; {@code exception_to}
 * from a unit introduced by "unless", "except", "notwithstanding" or "if ... fails" to the rule it
 * qualifies (the unit cited right after the cue, else the unit before it in the section), followed
 * both ways; and in runbooks {@code escalates_to} for a citation right after "escalate to" or
 * "escalate per".
 *
 * <p>Weights: a unit's {@code risk} grows by 0.3 per distinct risk cue word of the flavour it holds
 * (terminate, breach, ... / page, escalate, rollback, ...), its {@code novelty} by 0.5 per
 * exception cue; the cues found are listed in the attributes {@code risk_cues} and {@code
 * anomaly_cues}. Numbered units have importance 0.6, paragraphs 0.3.
 *
 * <p>Structure (see {@link UnitStructure}): {@code depends_on} from a unit that opens with a
 * condition on an earlier outcome ("if the restart does not clear the queue", "after the failover
 * and the cache flush") to the units it names; {@code contradicts}, both ways, between two units of
 * a section that give incompatible rules (a rule and its "unless" override, "restart" against "do
 * not restart"). Every unit lists, where any, its {@code semantic_roles} (obligation, prohibition,
 * condition, exception, remedy, escalation, detection, mitigation, termination, penalty,
 * notification, payment), {@code scenario_tags} (the flavour's declared scenarios: late_delivery,
 * defect, ... / queue_backlog, database, cache, ...), {@code symbolic_tags} (causal, escalation,
 * temporal, conditional, negation, deontic, quantitative), {@code depends_on} and {@code
 * contradicts} (unit ids) as comma-separated attributes.
 */
public final class MarkdownPack implements DomainPack {
  /** How many units ahead in its section a unit gets a {@code same_section} edge to. */
  static final int SAME_SECTION_REACH = 8;

  private static final Pattern HEADING = Pattern.compile("^\\s{0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern NUMBERED =
      Pattern.compile("^\\s{0,3}(\\d+(?:\\.\\d+)*)[.)]?\\s+(\\S.*)$");
  private static final Pattern CITATION =
      Pattern.compile(
          "\\b(?:section|clause|step)s?\\s+(\\d+(?:\\.\\d+)*)", Pattern.CASE_INSENSITIVE);
  private static final Pattern ESCALATION =
      Pattern.compile(
          "\\bescalat\\w*\\s+(?:to|per)\\s+(?:section|clause|step)\\s+(\\d+(?:\\.\\d+)*)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern EXCEPTION_CITED =
      Pattern.compile(
          "^(?:notwithstanding|except(?:\\s+as\\s+\\w+\\s+(?:in|by))?|subject\\s+to)\\s+"
              + "(?:section|clause|step)\\s+(\\d+(?:\\.\\d+)*)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern EXCEPTION =
      Pattern.compile(
          "^(?:unless|except|notwithstanding)\\b|^if\\b.*\\bfail(?:s|ed)?\\b(?!\\s+over)",
          Pattern.CASE_INSENSITIVE);
  private static final Map<String, Pattern> ANOMALY_CUES =
      cues(
          "unless",
          "unless",
          "except",
          "except",
          "notwithstanding",
          "notwithstanding",
          "fails",
          "fail(?:s|ed|ure)?");

  /** The two flavours and what they differ in. */
  public enum Flavour {
    /** Contracts: clauses, legal risk cues. */
    CONTRACT(
        "clause",
        cues(
            "terminate", "terminat\\w*",
            "breach", "breach\\w*",
            "indemnify", "indemn\\w*",
            "penalty", "penalt\\w*",
            "liability", "liab\\w*",
            "damages", "damages",
            "withhold", "withh\\w*",
            "reject", "reject\\w*"),
        UnitStructure.CONTRACT_SCENARIOS,
        new ScoreWeights(0.5, 0.35, 0.1, 0.05)),
    /** Runbooks: steps, operational risk cues, escalation edges. */
    RUNBOOK(
        "step",
        cues(
            "page", "pag(?:e|es|ed|ing)",
            "escalate", "escalat\\w*",
            "rollback", "roll\\s?back\\w*",
            "outage", "outages?",
            "incident", "incidents?",
            "severity", "severity",
            "data loss", "data\\s+loss"),
        UnitStructure.RUNBOOK_SCENARIOS,
        new ScoreWeights(0.5, 0.35, 0.1, 0.05));

    final String unitType;
    final Map<String, Pattern> riskCues;
    final Map<String, Pattern> scenarios;
    final ScoreWeights weights;

    Flavour(
        String unitType,
        Map<String, Pattern> riskCues,
        Map<String, Pattern> scenarios,
        ScoreWeights weights) {
      this.unitType = unitType;
      this.riskCues = riskCues;
      this.scenarios = scenarios;
      this.weights = weights;
    }
  }

  /** Edge weights: how strongly each edge type carries relevance. */
  static final double NEXT_UNIT = 0.5;

  static final double SAME_SECTION = 0.3;
  static final double REFERENCES = 0.8;
  static final double EXCEPTION_TO = 0.9;
  static final double ESCALATES_TO = 0.9;
  static final double DEPENDS_ON = 0.85;
  static final double CONTRADICTS = 0.7;

  private final Flavour flavour;

  /** The pack of {@code flavour}. */
  public MarkdownPack(Flavour flavour) {
    this.flavour = flavour;
  }

  @Override
  public String name() {
    return "markdown:" + flavour.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public ScoreWeights weights() {
    return flavour.weights;
  }

  private static Map<String, Pattern> cues(String... nameAndRegex) {
    String[] bounded = nameAndRegex.clone();
    for (int i = 1; i < bounded.length; i += 2) {
      bounded[i] = "\\b" + bounded[i] + "\\b";
    }
    return UnitStructure.cues(bounded);
  }

  /** The index past the last unit of unit {@code i}'s section within its same-section reach. */
  private static int sectionReach(List<Unit> units, int i) {
    int j = i + 1;
    while (j < units.size()
        && j <= i + SAME_SECTION_REACH
        && units.get(j).sectionIndex == units.get(i).sectionIndex) {
      j++;
    }
    return j;
  }

  /** A unit being read: its id, number (if numbered), section, lines and text. */
  private static final class Unit {
    final String id;
    final Optional<String> number;
    final Optional<String> section;
    final int sectionIndex;
    final int firstLine;
    final int startChar;
    int lastLine;
    int endChar;
    final StringBuilder text = new StringBuilder();

    Unit(
        String id,
        Optional<String> number,
        Optional<String> section,
        int sectionIndex,
        int line,
        int startChar) {
      this.id = id;
      this.number = number;
      this.section = section;
      this.sectionIndex = sectionIndex;
      this.firstLine = line;
      this.lastLine = line;
      this.startChar = startChar;
    }
  }

  @Override
  public Ingestion read(SourceDocument doc) {
    String stem = doc.stem();
    List<IngestReport.Skipped> skipped = new ArrayList<>();
    List<Unit> units = new ArrayList<>();
    Map<String, Unit> byId = new LinkedHashMap<>();
    Optional<String> section = Optional.empty();
    int sectionIndex = 0;
    int paragraphs = 0;
    Unit current = null;
    String text = doc.text();
    int lineNo = 0;
    int pos = 0;
    while (pos <= text.length()) {
      int nl = text.indexOf('\n', pos);
      int end = nl < 0 ? text.length() : nl;
      String line = text.substring(pos, end);
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      lineNo++;
      Matcher heading = HEADING.matcher(line);
      Matcher numbered = NUMBERED.matcher(line);
      if (line.isBlank()) {
        current = null;
      } else if (heading.matches()) {
        current = null;
        section = Optional.of(heading.group(1)).filter(s -> !s.isEmpty());
        sectionIndex++;
      } else if (numbered.matches()) {
        String id = stem + ":" + numbered.group(1);
        if (byId.containsKey(id)) {
          skipped.add(
              new IngestReport.Skipped(
                  doc.path() + " line " + lineNo,
                  "unit number "
                      + numbered.group(1)
                      + " was already used at line "
                      + byId.get(id).firstLine));
          current = null;
        } else {
          current =
              new Unit(id, Optional.of(numbered.group(1)), section, sectionIndex, lineNo, pos);
          current.text.append(numbered.group(2).strip());
          current.endChar = end;
          units.add(current);
          byId.put(id, current);
        }
      } else if (current != null) {
        current.text.append(' ').append(line.strip());
        current.lastLine = lineNo;
        current.endChar = end;
      } else {
        paragraphs++;
        current =
            new Unit(
                stem + ":p" + paragraphs, Optional.empty(), section, sectionIndex, lineNo, pos);
        current.text.append(line.strip());
        current.endChar = end;
        units.add(current);
        byId.put(current.id, current);
      }
      if (nl < 0) {
        break;
      }
      pos = nl + 1;
    }

    Map<MemoryEdge.Key, MemoryEdge> edges = new LinkedHashMap<>();
    Map<String, Set<String>> exceptions = new LinkedHashMap<>();
    for (int i = 0; i < units.size(); i++) {
      Unit u = units.get(i);
      EvidenceRef ref = ref(doc, u);
      for (int j = i + 1; j < sectionReach(units, i); j++) {
        Unit v = units.get(j);
        if (j == i + 1) {
          add(edges, MemoryEdge.of(u.id, v.id, "next_unit", NEXT_UNIT).withSource(ref));
        }
        add(
            edges,
            MemoryEdge.of(u.id, v.id, "same_section", SAME_SECTION).bothWays().withSource(ref));
      }
      String body = u.text.toString();
      Optional<String> qualified = Optional.empty();
      Matcher cited = EXCEPTION_CITED.matcher(body);
      if (cited.find()) {
        qualified = Optional.of(cited.group(1));
      }
      Set<String> escalations = new LinkedHashSet<>();
      if (flavour == Flavour.RUNBOOK) {
        Matcher esc = ESCALATION.matcher(body);
        while (esc.find()) {
          escalations.add(esc.group(1));
        }
      }
      Matcher m = CITATION.matcher(body);
      while (m.find()) {
        String n = m.group(1);
        String target = stem + ":" + n;
        if (target.equals(u.id)) {
          continue;
        }
        if (!byId.containsKey(target)) {
          skipped.add(
              new IngestReport.Skipped(
                  doc.path() + " line " + u.firstLine,
                  u.id + " cites " + m.group().strip() + ", which is not a unit of this file"));
          continue;
        }
        String type =
            qualified.filter(n::equals).isPresent()
                ? "exception_to"
                : escalations.contains(n) ? "escalates_to" : "references";
        double weight =
            switch (type) {
              case "exception_to" -> EXCEPTION_TO;
              case "escalates_to" -> ESCALATES_TO;
              default -> REFERENCES;
            };
        MemoryEdge e = MemoryEdge.of(u.id, target, type, weight).withSource(ref);
        add(edges, type.equals("exception_to") ? e.bothWays() : e);
        if (type.equals("exception_to")) {
          exceptions.computeIfAbsent(u.id, k -> new LinkedHashSet<>()).add(target);
        }
      }
      if (qualified.isEmpty() && EXCEPTION.matcher(body).find()) {
        Unit previous =
            i > 0 && units.get(i - 1).sectionIndex == u.sectionIndex ? units.get(i - 1) : null;
        if (previous == null) {
          skipped.add(
              new IngestReport.Skipped(
                  doc.path() + " line " + u.firstLine,
                  u.id + " reads as an exception but no rule precedes it in its section"));
        } else {
          add(
              edges,
              MemoryEdge.of(u.id, previous.id, "exception_to", EXCEPTION_TO)
                  .bothWays()
                  .withSource(ref));
          exceptions.computeIfAbsent(u.id, k -> new LinkedHashSet<>()).add(previous.id);
        }
      }
    }
    Structure structure = structure(doc, units, exceptions, edges);
    List<MemoryNode> nodes = new ArrayList<>();
    for (Unit u : units) {
      nodes.add(node(doc, u, structure));
    }
    return new Ingestion(
        List.of(new Ingestion.Graph(Optional.empty(), nodes, List.copyOf(edges.values()))),
        skipped);
  }

  private static void add(Map<MemoryEdge.Key, MemoryEdge> edges, MemoryEdge e) {
    edges.putIfAbsent(e.key(), e);
  }

  private static EvidenceRef ref(SourceDocument doc, Unit u) {
    return new EvidenceRef(
        doc.path(),
        u.section,
        Optional.of(new EvidenceRef.Span(u.firstLine, u.lastLine)),
        Optional.of(new EvidenceRef.Span(u.startChar, u.endChar)));
  }

  /** The depends_on and contradicts relations of a document, by unit id. */
  private record Structure(
      Map<String, List<String>> dependsOn, Map<String, Set<String>> contradicts) {}

  /**
   * Adds the {@code depends_on} and {@code contradicts} edges of {@code units} (see {@link
   * UnitStructure}) and returns them by unit for the node attributes.
   */
  private static Structure structure(
      SourceDocument doc,
      List<Unit> units,
      Map<String, Set<String>> exceptions,
      Map<MemoryEdge.Key, MemoryEdge> edges) {
    List<UnitStructure.Unit> views = new ArrayList<>();
    for (Unit u : units) {
      views.add(
          new UnitStructure.Unit(u.id, u.number.orElse(""), u.sectionIndex, u.text.toString()));
    }
    Map<String, List<String>> dependsOn = new LinkedHashMap<>();
    Map<String, Set<String>> contradicts = new LinkedHashMap<>();
    for (int i = 0; i < units.size(); i++) {
      Unit u = units.get(i);
      List<String> prerequisites = UnitStructure.dependsOn(views, i);
      if (!prerequisites.isEmpty()) {
        dependsOn.put(u.id, prerequisites);
      }
      for (String p : prerequisites) {
        add(edges, MemoryEdge.of(u.id, p, "depends_on", DEPENDS_ON).withSource(ref(doc, u)));
      }
      for (int j = i + 1; j < sectionReach(units, i); j++) {
        Unit v = units.get(j);
        Optional<UnitStructure.Unit> exception =
            exceptions.getOrDefault(v.id, Set.of()).contains(u.id)
                ? Optional.of(views.get(j))
                : exceptions.getOrDefault(u.id, Set.of()).contains(v.id)
                    ? Optional.of(views.get(i))
                    : Optional.empty();
        if (UnitStructure.contradict(views.get(i), views.get(j), exception)) {
          contradicts.computeIfAbsent(u.id, k -> new LinkedHashSet<>()).add(v.id);
          contradicts.computeIfAbsent(v.id, k -> new LinkedHashSet<>()).add(u.id);
          add(
              edges,
              MemoryEdge.of(u.id, v.id, "contradicts", CONTRADICTS)
                  .bothWays()
                  .withSource(ref(doc, v)));
        }
      }
    }
    return new Structure(dependsOn, contradicts);
  }

  private MemoryNode node(SourceDocument doc, Unit u, Structure structure) {
    String body = u.text.toString();
    List<String> risk = UnitStructure.tags(flavour.riskCues, body);
    List<String> anomaly = UnitStructure.tags(ANOMALY_CUES, body);
    MemoryNode.Builder b =
        MemoryNode.builder(u.id, u.number.isPresent() ? flavour.unitType : "paragraph", body)
            .importance(u.number.isPresent() ? 0.6 : 0.3)
            .risk(Math.min(1, 0.3 * risk.size()))
            .novelty(Math.min(1, 0.5 * anomaly.size()))
            .attribute("pack", name())
            .sourceRef(ref(doc, u));
    u.number.ifPresent(n -> b.attribute("number", n));
    u.section.ifPresent(s -> b.attribute("section", s));
    if (!risk.isEmpty()) {
      b.attribute("risk_cues", String.join(",", risk));
    }
    if (!anomaly.isEmpty()) {
      b.attribute("anomaly_cues", String.join(",", anomaly));
    }
    listed(b, "semantic_roles", UnitStructure.tags(UnitStructure.ROLES, body));
    listed(b, "scenario_tags", UnitStructure.tags(flavour.scenarios, body));
    listed(b, "symbolic_tags", UnitStructure.tags(UnitStructure.SYMBOLIC, body));
    listed(b, "depends_on", structure.dependsOn().getOrDefault(u.id, List.of()));
    listed(b, "contradicts", List.copyOf(structure.contradicts().getOrDefault(u.id, Set.of())));
    return b.build();
  }

  private static void listed(MemoryNode.Builder b, String key, List<String> values) {
    if (!values.isEmpty()) {
      b.attribute(key, String.join(",", values));
    }
  }
}
