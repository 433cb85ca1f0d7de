package dev.loci.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.internal.Json;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import dev.loci.subjects.SubjectPolicy;
import dev.loci.subjects.Subjects;
import dev.loci.subjects.SubjectsWire;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * API v1 of subjects: manifests, audit export, erasure, subject and namespace retention, the sweep,
 * under {@code /v1/ns/{ns}/}. Reading a manifest or a namespace's retention needs {@code reader} (a
 * manifest lists record ids and versions, never content); everything else needs {@code legal},
 * whose token id is recorded in the audit log of every subject it touches. Manifests, erasure and
 * the sweep reach the namespaces below {@code {ns}} with {@code subtree=true}.
 */
public final class SubjectRoutes implements RouteSet {
  static final String SUBJECT = "/v1/ns/{ns}/subjects/{subject_id}";
  static final String RETENTION = "/v1/ns/{ns}/retention";
  private static final Set<String> SUBTREE = Set.of("subtree");

  private final Subjects subjects;
  private final Clock clock;

  /** Routes over {@code subjects}; the sweep takes the time from {@code clock}. */
  public SubjectRoutes(Subjects subjects, Clock clock) {
    this.subjects = subjects;
    this.clock = clock;
  }

  @Override
  public List<Route> routes() {
    return List.of(
        Route.of(
            Method.GET,
            SUBJECT,
            Role.READER,
            NamespaceAccess.PATH_OR_SUBTREE,
            false,
            this::manifest),
        Route.of(
            Method.GET, SUBJECT + "/audit", Role.LEGAL, NamespaceAccess.PATH, false, this::audit),
        Route.of(
            Method.POST,
            SUBJECT + "/erase",
            Role.LEGAL,
            NamespaceAccess.PATH_OR_SUBTREE,
            true,
            this::erase),
        Route.of(
            Method.PUT, SUBJECT + "/policy", Role.LEGAL, NamespaceAccess.PATH, true, this::policy),
        Route.of(
            Method.GET, RETENTION, Role.READER, NamespaceAccess.PATH, false, this::getRetention),
        Route.of(Method.PUT, RETENTION, Role.LEGAL, NamespaceAccess.PATH, true, this::putRetention),
        Route.of(
            Method.POST,
            RETENTION + "/sweep",
            Role.LEGAL,
            NamespaceAccess.PATH_OR_SUBTREE,
            true,
            this::sweep));
  }

  private static String subjectId(Exchange ex) {
    return Subjects.checkId(ex.pathParam("subject_id"), "subject_id");
  }

  private void manifest(Exchange ex) {
    QueryParams.allowOnly(ex, SUBTREE);
    ex.json(200, Json.write(SubjectsWire.manifest(subjects.manifest(subjectId(ex), ex.scope()))));
  }

  /**
   * The subject's audit log as JSON Lines, exactly as kept (so a holder of the key can check the
   * chain), without the entries of namespaces outside the credential's reach: their count is in
   * {@code Loci-Audit-Omitted}, and the chain verifies whole only when it is 0.
   */
  private void audit(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    String id = subjectId(ex);
    List<String> lines = subjects.auditLog(ex.legal("subject_id"), ex.namespace(), id);
    StringBuilder out = new StringBuilder();
    int omitted = 0;
    for (String line : lines) {
      if (visible(ex, line)) {
        out.append(line).append('\n');
      } else {
        omitted++;
      }
    }
    ex.responseHeader("Loci-Audit-Omitted", Integer.toString(omitted));
    ex.respond(200, "application/x-ndjson", out.toString());
  }

  /** Whether an audit line is about a namespace the exchange's credential may read. */
  private static boolean visible(Exchange ex, String line) {
    JsonNode e;
    try {
      e = Json.MAPPER.readTree(line);
    } catch (java.io.IOException x) {
      throw new UncheckedIOException(x);
    }
    if (!e.has("ns")) {
      return true; // a key rotation: about no namespace
    }
    return ex.reads(NamespaceScope.exactly(Namespace.of(e.get("ns").asText())));
  }

  private void erase(Exchange ex) {
    QueryParams.allowOnly(ex, SUBTREE);
    JsonBody body = ex.body().allowOnly(Set.of("reason"));
    String id = subjectId(ex);
    ex.json(
        200,
        Json.write(
            SubjectsWire.erasure(
                id,
                subjects.erase(
                    ex.legal("subject_id"),
                    ex.scope(),
                    ex.namespace(),
                    id,
                    body.string("reason").orElse(null)))));
  }

  private void policy(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body =
        ex.body().allowOnly(Set.of("retain_days", "legal_hold", "vertical", "legal_basis"));
    SubjectPolicy p =
        new SubjectPolicy(
            retainDays(body),
            body.bool("legal_hold").orElse(false),
            body.string("vertical"),
            body.string("legal_basis"));
    ex.json(
        200,
        Json.write(
            SubjectsWire.policy(
                subjects.setPolicy(ex.legal("subject_id"), ex.namespace(), subjectId(ex), p))));
  }

  private static OptionalInt retainDays(JsonBody body) {
    Optional<Integer> days = body.integer("retain_days");
    return days.isPresent() ? OptionalInt.of(days.get()) : OptionalInt.empty();
  }

  private void getRetention(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(200, Json.write(SubjectsWire.policy(subjects.namespacePolicy(ex.namespace()))));
  }

  private void putRetention(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(Set.of("retain_days", "vertical"));
    SubjectPolicy p =
        new SubjectPolicy(retainDays(body), false, body.string("vertical"), Optional.empty());
    ex.json(
        200,
        Json.write(
            SubjectsWire.policy(
                subjects.setNamespacePolicy(ex.legal("retain_days"), ex.namespace(), p))));
  }

  private void sweep(Exchange ex) {
    QueryParams.allowOnly(ex, SUBTREE);
    JsonBody body = ex.body().allowOnly(Set.of("dry_run"));
    boolean dryRun = body.bool("dry_run").orElse(false);
    ex.legal("dry_run");
    NamespaceScope scope = ex.scope();
    ex.json(200, Json.write(SubjectsWire.sweep(subjects.sweep(scope, clock.instant(), dryRun))));
  }
}
