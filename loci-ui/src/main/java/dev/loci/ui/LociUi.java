package dev.loci.ui;

import dev.loci.Loci;
import dev.loci.govern.GovernedMemory;
import dev.loci.pathway.PathwayMemory;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.server.spi.WebAccess;
import dev.loci.server.spi.WebMount;
import dev.loci.subjects.Subjects;
import dev.loci.ui.internal.Assets;
import dev.loci.ui.internal.AuthPages;
import dev.loci.ui.internal.GovernPages;
import dev.loci.ui.internal.GraphPages;
import dev.loci.ui.internal.JournalActivity;
import dev.loci.ui.internal.NamespacePages;
import dev.loci.ui.internal.OpsPages;
import dev.loci.ui.internal.PathwayPages;
import dev.loci.ui.internal.RecallPages;
import dev.loci.ui.internal.Sessions;
import dev.loci.ui.internal.SubjectPages;
import dev.loci.ui.internal.TracePages;
import dev.loci.ui.internal.Web;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import io.javalin.Javalin;
import java.time.Duration;
import java.util.Objects;

/**
 * The web UI: pages under {@code /ui} (and a landing page at {@code /}) over one open {@link Loci},
 * mounted on a server with {@code LociServer.builder(...).web(LociUi::create)}. Every page obeys
 * the server's credentials, roles, namespace grants and allowlist; with no credential configured
 * the UI is open, like the API, to the local user. Thread-safe.
 */
public final class LociUi implements WebMount {
  /** How long a session lasts after its last request. */
  public static final Duration SESSION_TTL = Duration.ofHours(8);

  private final Loci loci;
  private final EmbeddingProvider embeddings;

  private LociUi(Loci loci, EmbeddingProvider embeddings) {
    this.loci = Objects.requireNonNull(loci, "loci");
    this.embeddings = Objects.requireNonNull(embeddings, "embeddings");
  }

  /** The UI over {@code loci}; recall embeds queries with {@code embeddings}. */
  public static LociUi create(Loci loci, EmbeddingProvider embeddings) {
    return new LociUi(loci, embeddings);
  }

  @Override
  public void mount(Javalin app, WebAccess access) {
    TemplateEngine jte = TemplateEngine.createPrecompiled(ContentType.Html);
    Web web = new Web(app, access, new Sessions(SESSION_TTL), jte);
    Assets assets = new Assets();
    app.get(
        "/ui/assets/{name}",
        ctx -> {
          access.route(ctx, "/ui/assets/{name}");
          access.checkClient(ctx);
          assets.serve(ctx, ctx.pathParam("name"));
        });
    // as the HTTP API: a superseded or invalid governed memory never outranks its successor
    RecallMemory recall =
        RecallMemory.of(loci, embeddings).withScoring(dev.loci.govern.GovernedScoring.INSTANCE);
    GovernedMemory governed = GovernedMemory.of(loci);
    PathwayMemory pathways = PathwayMemory.of(loci);
    new AuthPages(web).register();
    JournalActivity activity = new JournalActivity(loci.dataDir().resolve("journal"));
    new NamespacePages(web, loci.traces(), recall, governed, pathways, activity).register();
    new TracePages(web, loci.traces()).register();
    new GovernPages(web, governed).register();
    new RecallPages(web, recall).register();
    new GraphPages(web, recall).register();
    new PathwayPages(web, pathways).register();
    new SubjectPages(web, Subjects.of(loci)).register();
    new OpsPages(web, loci, activity).register();
  }
}
