package dev.loci.ui.internal;

import dev.loci.NamespaceScope;
import dev.loci.server.Role;
import dev.loci.subjects.AuditVerification;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.SubjectManifest;
import dev.loci.subjects.Subjects;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Subjects and audit: a subject's manifest (which records name them, in which layers and
 * namespaces, under which policy, with how many audit entries) within a namespace the viewer may
 * read, and the verification of the HMAC-chained audit logs, for admins and legal credentials.
 */
public final class SubjectPages {
  /**
   * The page.
   *
   * @param subject the subject id asked about, empty before a search
   * @param ns the namespace scope as typed
   * @param manifest the manifest found
   * @param verification the audit verification, when one was run
   * @param canVerify whether the viewer may verify the audit logs
   */
  public record View(
      String subject,
      String ns,
      Optional<SubjectManifest> manifest,
      Optional<AuditVerification> verification,
      boolean canVerify) {
    /** The manifest's records by layer. */
    public Map<String, List<HeldRecord>> byLayer() {
      return manifest.map(SubjectManifest::byLayer).orElse(Map.of());
    }
  }

  private final Web web;
  private final Subjects subjects;

  /** The page over {@code subjects}. */
  public SubjectPages(Web web, Subjects subjects) {
    this.web = web;
    this.subjects = subjects;
  }

  /** Registers {@code /ui/subjects}. */
  public void register() {
    web.get("/ui/subjects", Role.READER, this::view);
  }

  private void view(Req req) {
    String subject = req.query("subject").orElse("");
    String nsText = req.query("ns").orElse("");
    boolean canVerify = req.viewer().allows(Role.ADMIN) || req.viewer().legal().isPresent();
    Optional<SubjectManifest> manifest = Optional.empty();
    if (!subject.isEmpty()) {
      Subjects.checkId(subject, "subject");
      if (nsText.isEmpty()) {
        if (!readsAll(req.viewer())) {
          throw PageProblem.badField(
              "ns",
              "your token reaches only some namespaces: name one (acme, or acme.* for a tree)");
        }
        manifest = Optional.of(subjects.manifest(subject));
      } else {
        NamespaceScope scope;
        try {
          scope = NamespaceScope.of(nsText);
        } catch (RuntimeException e) {
          throw PageProblem.badField(
              "ns",
              "expected a namespace, or one ending in .* for its subtree, found '" + nsText + "'");
        }
        if (!req.viewer().credential().map(c -> c.covers(scope)).orElse(true)) {
          throw PageProblem.forbidden("your token may not read " + scope);
        }
        manifest = Optional.of(subjects.manifest(subject, scope));
      }
    }
    Optional<AuditVerification> verification = Optional.empty();
    if (req.query("verify").isPresent()) {
      if (!canVerify) {
        throw PageProblem.forbidden("verifying the audit logs needs an admin or legal credential");
      }
      verification =
          Optional.of(
              subjects.verifyAudit(subject.isEmpty() ? Optional.empty() : Optional.of(subject)));
    }
    req.page(
        "subjects.jte",
        req.chrome("Subjects & audit", "subjects", Optional.empty()),
        new View(subject, nsText, manifest, verification, canVerify));
  }

  private static boolean readsAll(Viewer viewer) {
    return viewer
        .credential()
        .map(c -> c.grants().stream().anyMatch(g -> g.scope().isEmpty()))
        .orElse(true);
  }
}
