package dev.loci.client;

import dev.loci.recall.spi.SourceDocument;

/** A small runbook the adapter tests ingest with the {@value #PACK} pack and then ask about. */
public final class TestDocuments {
  /** The domain pack the runbook is ingested with. */
  public static final String PACK = "markdown:runbook";

  /** Two sections: Rollback (the revert pipeline, 30 minutes) and Freeze (the release captain). */
  public static final String RUNBOOK =
      "# Deploy runbook\n\n"
          + "## Rollback\n\n"
          + "To roll back a payments deploy, run the revert pipeline and page the on-call"
          + " payments engineer; the rollback window is 30 minutes.\n\n"
          + "## Freeze\n\n"
          + "No deploys on Fridays after 15:00 without approval from the release captain.\n";

  private TestDocuments() {}

  /** The runbook as {@code deploy.md}. */
  public static SourceDocument runbook() {
    return new SourceDocument("deploy.md", RUNBOOK);
  }
}
