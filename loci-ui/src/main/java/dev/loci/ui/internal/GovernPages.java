package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.govern.Conflict;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.Reviewer;
import dev.loci.govern.StateEntry;
import dev.loci.server.Role;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Governed memory: the review queue (promote or reject candidates), conflicts (keep one member or
 * dismiss) and trusted project state. Anyone who may read the namespace sees them; the buttons are
 * shown only to a {@code reviewer} (or above), and every action checks the role again on the
 * server, so a forged POST from a reader is refused with 403 like the API's.
 */
public final class GovernPages {
  /**
   * The review queue.
   *
   * @param ns the namespace
   * @param candidates the candidates, oldest first
   * @param canReview whether the viewer may promote and reject
   * @param flash what the last action did, if anything
   * @param csrf the session's CSRF token, for the forms of the fragment
   */
  public record Queue(
      Namespace ns,
      List<Memory> candidates,
      boolean canReview,
      Optional<String> flash,
      String csrf) {}

  /**
   * The conflicts.
   *
   * @param ns the namespace
   * @param conflicts open conflicts first, then closed ones
   * @param members the memories the conflicts name, by id
   * @param canReview whether the viewer may resolve and dismiss
   */
  public record Conflicts(
      Namespace ns, List<Conflict> conflicts, Map<String, Memory> members, boolean canReview) {}

  /**
   * Trusted project state.
   *
   * @param ns the namespace
   * @param entries the entries by key
   * @param canReview whether the viewer may set entries
   */
  public record State(Namespace ns, Map<String, StateEntry> entries, boolean canReview) {}

  private final Web web;
  private final GovernedMemory governed;

  /** The pages over {@code governed}. */
  public GovernPages(Web web, GovernedMemory governed) {
    this.web = web;
    this.governed = governed;
  }

  /** Registers the review, conflict and state pages and their actions. */
  public void register() {
    web.get("/ui/ns/{ns}/review", Role.READER, req -> queue(req, Optional.empty()));
    web.post("/ui/ns/{ns}/review/{id}/promote", Role.REVIEWER, this::promote);
    web.post("/ui/ns/{ns}/review/{id}/reject", Role.REVIEWER, this::reject);
    web.get("/ui/ns/{ns}/conflicts", Role.READER, this::conflicts);
    web.post("/ui/ns/{ns}/conflicts/{id}/resolve", Role.REVIEWER, this::resolve);
    web.post("/ui/ns/{ns}/conflicts/{id}/dismiss", Role.REVIEWER, this::dismiss);
    web.get("/ui/ns/{ns}/state", Role.READER, this::state);
    web.post("/ui/ns/{ns}/state", Role.REVIEWER, this::setState);
  }

  private void queue(Req req, Optional<String> flash) {
    Namespace ns = req.ns();
    Queue q =
        new Queue(
            ns, governed.candidates(ns), req.viewer().allows(Role.REVIEWER), flash, req.csrf());
    if (req.htmx() && flash.isPresent()) {
      req.fragment("review-queue.jte", q);
    } else {
      req.page("review.jte", req.chrome("Review queue · " + ns, "review", Optional.of(ns)), q);
    }
  }

  private GovernedMemory as(Req req) {
    return governed.as(req.viewer().actor());
  }

  private static Reviewer reviewer(Req req) {
    return new Reviewer(req.viewer().reviewerId());
  }

  private void promote(Req req) {
    Namespace ns = req.ns();
    Memory m = as(req).promote(ns, req.ctx().pathParam("id"), reviewer(req)).memory();
    after(req, ns, "Promoted “" + Html.cut(m.content(), 60) + "”: it is now trusted.");
  }

  private void reject(Req req) {
    Namespace ns = req.ns();
    String reason = req.form("reason").orElse("rejected in the web UI");
    Memory m = as(req).reject(ns, req.ctx().pathParam("id"), reason, reviewer(req));
    after(req, ns, "Rejected “" + Html.cut(m.content(), 60) + "”.");
  }

  private void after(Req req, Namespace ns, String flash) {
    if (req.htmx()) {
      queue(req, Optional.of(flash));
    } else {
      req.redirect("/ui/ns/" + ns + "/review");
    }
  }

  private void conflicts(Req req) {
    Namespace ns = req.ns();
    List<Conflict> all = governed.conflicts(ns, Optional.empty());
    Map<String, Memory> members = new java.util.HashMap<>();
    for (Conflict c : all) {
      for (String id : c.members()) {
        members.computeIfAbsent(id, k -> governed.get(ns, k));
      }
    }
    List<Conflict> sorted =
        all.stream()
            .sorted(
                java.util.Comparator.comparing((Conflict c) -> c.status() != Conflict.Status.OPEN)
                    .thenComparing(Conflict::openedAt))
            .toList();
    req.page(
        "conflicts.jte",
        req.chrome("Conflicts · " + ns, "conflicts", Optional.of(ns)),
        new Conflicts(ns, sorted, members, req.viewer().allows(Role.REVIEWER)));
  }

  private void resolve(Req req) {
    Namespace ns = req.ns();
    String winner =
        req.form("winner")
            .orElseThrow(
                () -> PageProblem.badField("winner", "expected the id of the member to keep"));
    as(req).resolve(ns, req.ctx().pathParam("id"), winner, reviewer(req));
    req.redirect("/ui/ns/" + ns + "/conflicts");
  }

  private void dismiss(Req req) {
    Namespace ns = req.ns();
    as(req).dismiss(ns, req.ctx().pathParam("id"), reviewer(req));
    req.redirect("/ui/ns/" + ns + "/conflicts");
  }

  private void state(Req req) {
    Namespace ns = req.ns();
    req.page(
        "state.jte",
        req.chrome("Project state · " + ns, "state", Optional.of(ns)),
        new State(ns, governed.state(ns), req.viewer().allows(Role.REVIEWER)));
  }

  private void setState(Req req) {
    Namespace ns = req.ns();
    String key =
        req.form("key").orElseThrow(() -> PageProblem.badField("key", "expected a state key"));
    String value =
        req.form("value").orElseThrow(() -> PageProblem.badField("value", "expected a value"));
    as(req).setState(ns, key, value, reviewer(req));
    req.redirect("/ui/ns/" + ns + "/state");
  }
}
