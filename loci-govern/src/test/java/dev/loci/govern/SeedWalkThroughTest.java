package dev.loci.govern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.internal.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AtoCore seed end to end: capture, extraction into both kinds, one queue, graduation, entity
 * conflicts across layers, and the context pack in trust order within budget.
 */
class SeedWalkThroughTest {
  private static final Namespace NS = Namespace.of("acme.pump");
  private static final Reviewer REVIEWER = new Reviewer("lead@acme");

  @TempDir Path dir;
  private Loci loci;
  private GovernedMemory gov;
  private GovernedEntities ents;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(dir).open();
    gov = GovernedMemory.of(loci);
    ents = GovernedEntities.of(loci);
  }

  @AfterEach
  void close() {
    loci.close();
  }

  private static final String MEETING =
      """
      My name is Dana Reyes. I work at Acme Hydraulics.
      I prefer metric units in every report.
      We decided to use GF-PTFE pads for the thrust bearing.
      The housing must not exceed 80 C.
      Rated pressure = 16 bar
      ## Requirements
      - The pump shall deliver 40 l/min at 16 bar
      """;

  @Test
  void walkThrough_captureReviewGraduateConflictAndContext() {
    // 1. an interaction yields memory and entity candidates with full provenance
    Extraction x = gov.capture(NS, MEETING, "dana", Optional.empty(), ExtractionTarget.BOTH);
    String interaction = x.interaction().orElseThrow().id();
    assertThat(x.candidates())
        .allSatisfy(
            c -> {
              assertThat(c.provenance().rule()).isPresent();
              assertThat(c.provenance().sourceInteraction()).contains(interaction);
              assertThat(c.provenance().extractorVersion()).contains("rules-1");
            });
    assertThat(x.candidates())
        .extracting(Candidate::rule)
        .contains(
            "identity_sentence",
            "preference_sentence",
            "decision_sentence",
            "constraint_sentence",
            "fact_value",
            "requirement_heading");
    List<Candidate> queue = gov.queue(NS);
    assertThat(queue).extracting(Candidate::kind).contains("memory", "entity");
    assertThat(queue).extracting(Candidate::source).containsOnly("interaction:" + interaction);
    Entity pressure = entity(queue, EntityType.PARAMETER);
    assertThat(pressure.name()).isEqualTo("Rated pressure");
    assertThat(pressure.values()).containsEntry("value", "16 bar");
    assertThat(pressure.sources()).contains(new SourceRef("interaction", interaction));
    Entity decision = entity(queue, EntityType.DECISION);
    assertThat(decision.values().get("statement")).contains("GF-PTFE");

    // 2. promote and reject, one verb each for both kinds
    gov.promoteCandidate(NS, pressure.id(), REVIEWER);
    Memory name = memory(queue, MemoryType.IDENTITY, "Name: Dana Reyes");
    gov.promoteCandidate(NS, name.id(), REVIEWER);
    Memory pref = memory(queue, MemoryType.PREFERENCE, "metric");
    Entity rejected = (Entity) gov.rejectCandidate(NS, decision.id(), "not final yet", REVIEWER);
    assertThat(rejected.status()).isEqualTo(EntityStatus.INVALID);
    assertThat(ents.get(NS, pressure.id()).status()).isEqualTo(EntityStatus.ACTIVE);
    assertThat(gov.queue(NS))
        .extracting(Candidate::id)
        .doesNotContain(pressure.id(), name.id(), decision.id())
        .contains(pref.id());
    assertThatThrownBy(() -> gov.promoteCandidate(NS, decision.id(), REVIEWER))
        .isInstanceOf(InvalidRequestException.class)
        .hasFieldOrPropertyWithValue("field", "status");

    // 3. a fact reinforced five times proposes graduation; the memory is frozen behind the entity
    Memory bearing =
        gov.add(
                NS,
                MemoryDraft.of(MemoryType.PROJECT, "The bearing must be greased monthly", "dana"),
                REVIEWER)
            .memory();
    Memory last = bearing;
    for (int i = 0; i < 5; i++) {
      last = gov.reinforce(NS, bearing.id());
    }
    assertThat(last.status()).isEqualTo(MemoryStatus.GRADUATED);
    String entityId = last.graduatedTo().orElseThrow();
    Entity graduated = ents.get(NS, entityId);
    assertThat(graduated.status()).isEqualTo(EntityStatus.CANDIDATE);
    assertThat(graduated.type()).isEqualTo(EntityType.REQUIREMENT);
    assertThat(graduated.graduatedFrom()).contains(bearing.id());
    ents.promote(NS, entityId, REVIEWER);
    assertThat(gov.get(NS, bearing.id()).status()).isEqualTo(MemoryStatus.GRADUATED);
    assertThat(gov.get(NS, bearing.id()).version()).isEqualTo(last.version());

    // 4. two incompatible writes to one slot both succeed and open one conflict
    EntityWritten other =
        ents.add(
            NS,
            EntityDraft.of(
                EntityType.PARAMETER, "rated pressure", Map.of("value", "25 bar"), "vendor"),
            REVIEWER);
    assertThat(other.conflicts()).hasSize(1);
    Conflict c = other.conflicts().get(0);
    assertThat(c.members())
        .containsExactlyInAnyOrder(
            Conflict.ENTITY + pressure.id(), Conflict.ENTITY + other.entity().id());
    assertThat(gov.openConflicts()).isEqualTo(1);
    // trusted state names the same fact by its cross-layer key and joins as the prevailing member
    gov.setState(NS, "rated_pressure", "16 bar", REVIEWER);
    Conflict withState =
        gov.conflicts(NS, Optional.of(Conflict.Status.OPEN)).stream()
            .filter(k -> k.members().contains("state:rated_pressure"))
            .findFirst()
            .orElseThrow();
    assertThat(withState.prevailing()).contains("state:rated_pressure");
    assertThat(text(gov.context(NS, "rated pressure of the pump", 4000))).doesNotContain("25 bar");

    // 5. resolving supersedes the loser
    gov.resolve(NS, c.id(), Conflict.ENTITY + pressure.id(), REVIEWER);
    assertThat(ents.get(NS, other.entity().id()).status()).isEqualTo(EntityStatus.SUPERSEDED);
    assertThat(ents.get(NS, other.entity().id()).supersededBy()).contains(pressure.id());

    // 6. the context pack: trust order, budget exact, no superseded or invalid record
    ContextPack pack = gov.context(NS, "What pressure and bearing rules apply to the pump?", 4000);
    assertThat(pack.slots())
        .extracting(ContextPack.Slot::name)
        .containsExactly("project_state", "identity", "preference", "entities", "retrieved");
    assertThat(pack.usedTokens()).isLessThanOrEqualTo(4000);
    assertThat(
            pack.slots().stream()
                .flatMap(s -> s.items().stream())
                .mapToInt(ContextPack.Item::tokens)
                .sum())
        .isEqualTo(pack.usedTokens());
    assertThat(pack.slots().get(3).items())
        .extracting(ContextPack.Item::id)
        .contains(pressure.id(), entityId)
        .doesNotContain(other.entity().id(), decision.id());
    assertThat(pack.slots().get(1).items()).extracting(ContextPack.Item::id).contains(name.id());
    assertThat(text(pack)).doesNotContain("25 bar").doesNotContain(bearing.id());
    ContextPack tight = gov.context(NS, "pressure", 30);
    assertThat(tight.usedTokens()).isLessThanOrEqualTo(30);
  }

  @Test
  void extraction_matchingAnActiveMemoryGraduatesIt_andCapsAPassAt50() {
    Memory fact =
        gov.add(
                NS,
                MemoryDraft.of(MemoryType.PROJECT, "The housing must not exceed 80 C", "dana"),
                REVIEWER)
            .memory();
    Extraction x =
        gov.capture(
            NS,
            "The housing must not exceed 80 C.",
            "dana",
            Optional.empty(),
            ExtractionTarget.ENTITIES);
    assertThat(x.graduated()).extracting(Memory::id).containsExactly(fact.id());
    Memory frozen = gov.get(NS, fact.id());
    assertThat(frozen.status()).isEqualTo(MemoryStatus.GRADUATED);
    Entity e = ents.get(NS, frozen.graduatedTo().orElseThrow());
    assertThat(e.type()).isEqualTo(EntityType.CONSTRAINT);
    assertThat(e.sources()).contains(new SourceRef("memory", fact.id()));

    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 80; i++) {
      many.append("Part ").append(i).append(" mass = ").append(i + 1).append(" kg\n");
    }
    Extraction big =
        gov.capture(NS, many.toString(), "dana", Optional.empty(), ExtractionTarget.MEMORY);
    assertThat(big.candidates()).hasSize(Extraction.CAP);
    assertThat(big.overCap()).isEqualTo(30);
  }

  @Test
  void explicitExtract_targetsOneKind_andAWaveWritesItsReport() throws Exception {
    Extraction x =
        gov.capture(
            NS, "We decided to ship in May.", "dana", Optional.empty(), ExtractionTarget.MEMORY);
    assertThat(x.candidates()).extracting(Candidate::kind).containsOnly("memory");
    Extraction again =
        gov.extract(NS, x.interaction().orElseThrow().id(), ExtractionTarget.ENTITIES);
    assertThat(again.candidates()).extracting(Candidate::kind).containsOnly("entity");

    Extraction wave =
        gov.extractWave(
            NS,
            List.of(
                new ExtractionChunk(
                    "spec:1", Optional.of("spec.md"), "## Constraints\n- Noise below 60 dB"),
                new ExtractionChunk("spec:2", Optional.of("spec.md"), "Flow rate = 40 l/min")),
            ExtractionTarget.BOTH);
    assertThat(wave.candidates())
        .allSatisfy(c -> assertThat(c.provenance().sourceChunk()).isPresent());
    Path report =
        dir.resolve("extraction-reports").resolve(wave.wave().orElseThrow()).resolve("report.json");
    JsonNode r = Json.MAPPER.readTree(Files.readString(report));
    assertThat(r.path("chunks")).hasSize(2);
    assertThat(r.path("candidates")).hasSize(wave.candidates().size());
    assertThat(r.path("candidates").findValuesAsText("rule")).contains("constraint_heading");
  }

  @Test
  void entitiesCanonical_refusesNewProjectMemoriesOnceEntitiesAreInUse_offByDefault() {
    MemoryDraft project = MemoryDraft.of(MemoryType.PROJECT, "Ship by May", "dana");
    ents.add(NS, EntityDraft.of(EntityType.SUBSYSTEM, "cooling loop", Map.of(), "dana"), REVIEWER);
    assertThat(gov.propose(NS, project).memory().status()).isEqualTo(MemoryStatus.CANDIDATE);
    gov.setSetting(NS, GovernedMemory.ENTITIES_CANONICAL, "true", REVIEWER);
    assertThatThrownBy(() -> gov.propose(NS, MemoryDraft.of(MemoryType.ADAPTATION, "x", "d")))
        .isInstanceOf(InvalidRequestException.class)
        .hasFieldOrPropertyWithValue("field", "type");
    assertThat(gov.propose(NS, MemoryDraft.of(MemoryType.PREFERENCE, "tea", "d")).memory())
        .isNotNull();
    Extraction x =
        gov.capture(
            NS, "We decided to ship in June.", "dana", Optional.empty(), ExtractionTarget.BOTH);
    assertThat(x.candidates()).extracting(Candidate::kind).containsOnly("entity");
  }

  @Test
  void entities_relationshipsFieldVersionsAndReplay() {
    Entity loop =
        ents.add(
                NS,
                EntityDraft.of(
                    EntityType.SUBSYSTEM, "cooling loop", Map.of("medium", "water"), "dana"),
                REVIEWER)
            .entity();
    Entity req =
        ents.propose(
                NS,
                EntityDraft.of(
                    EntityType.REQUIREMENT,
                    "loop flow",
                    Map.of("statement", "The loop shall carry 40 l/min"),
                    "dana"))
            .entity();
    ents.relate(NS, req.id(), RelationType.PART_OF, loop.id());
    ents.relate(NS, req.id(), RelationType.PART_OF, loop.id()); // once
    Entity changed =
        ents.update(NS, loop.id(), Map.of("medium", "glycol", "volume", "12 l"), REVIEWER).entity();
    assertThat(changed.fields().get("medium").version()).isEqualTo(2);
    assertThat(changed.fields().get("volume").version()).isEqualTo(1);
    assertThat(ents.history(NS, loop.id())).hasSize(2);
    assertThatThrownBy(() -> ents.relate(NS, req.id(), RelationType.DEPENDS_ON, "nope"))
        .isInstanceOf(dev.loci.NotFoundException.class)
        .hasFieldOrPropertyWithValue("field", "target");
    assertThatThrownBy(() -> ents.propose(NS, EntityDraft.of(EntityType.FACT, " ", Map.of(), "d")))
        .isInstanceOf(InvalidRequestException.class)
        .hasFieldOrPropertyWithValue("field", "name");
    assertThatThrownBy(() -> EntityType.of("Widget", "type"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("requirement");
    loci.snapshot();
    List<Entity> before = ents.list(NS, Optional.empty(), Optional.empty());
    loci.close();
    loci = Loci.builder().dataDir(dir).open();
    ents = GovernedEntities.of(loci);
    assertThat(ents.list(NS, Optional.empty(), Optional.empty())).isEqualTo(before);
    assertThat(ents.get(NS, req.id()).relationships()).hasSize(1);
  }

  @Test
  void supersede_entityByAnAlreadyActiveOne_appliesAndSurvivesReplay() {
    Entity a =
        ents.add(
                NS,
                EntityDraft.of(
                    EntityType.DECISION, "pads", Map.of("statement", "Use PTFE pads"), "d"),
                REVIEWER)
            .entity();
    Entity b =
        ents.add(
                NS,
                EntityDraft.of(
                    EntityType.DECISION, "pads v2", Map.of("statement", "Use GF-PTFE pads"), "d"),
                REVIEWER)
            .entity();
    ents.supersede(NS, a.id(), b.id(), REVIEWER);
    loci.close();
    loci = Loci.builder().dataDir(dir).open();
    ents = GovernedEntities.of(loci);
    assertThat(ents.get(NS, a.id()).status()).isEqualTo(EntityStatus.SUPERSEDED);
    assertThat(ents.get(NS, b.id()).version()).isEqualTo(b.version());
  }

  private static Entity entity(List<Candidate> queue, EntityType type) {
    return queue.stream()
        .flatMap(c -> c.entity().stream())
        .filter(e -> e.type() == type)
        .findFirst()
        .orElseThrow();
  }

  private static Memory memory(List<Candidate> queue, MemoryType type, String contains) {
    return queue.stream()
        .flatMap(c -> c.memory().stream())
        .filter(m -> m.type() == type && m.content().contains(contains))
        .findFirst()
        .orElseThrow();
  }

  private static String text(ContextPack pack) {
    StringBuilder b = new StringBuilder();
    pack.slots().forEach(s -> s.items().forEach(i -> b.append(i.text()).append('\n')));
    return b.toString();
  }
}
