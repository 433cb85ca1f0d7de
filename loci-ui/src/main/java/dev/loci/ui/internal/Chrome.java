package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.server.Role;
import java.util.Optional;

/**
 * What the layout around every page needs: the title, the section highlighted in the navigation,
 * the namespace being browsed, who is looking and the session's CSRF token.
 *
 * @param title the page title
 * @param section the navigation entry to highlight
 * @param ns the namespace browsed, if any
 * @param viewer who is looking
 * @param csrf the session's CSRF token, put in every form and sent with every htmx request
 * @param loginRequired whether the server has credentials (so there is a login and a logout)
 */
public record Chrome(
    String title,
    String section,
    Optional<Namespace> ns,
    Viewer viewer,
    String csrf,
    boolean loginRequired) {

  /** Whether the viewer may review (promote, reject, resolve). */
  public boolean reviewer() {
    return viewer.allows(Role.REVIEWER);
  }

  /** Whether the viewer may see operations. */
  public boolean admin() {
    return viewer.allows(Role.ADMIN);
  }

  /** The namespace's label, or an empty string. */
  public String nsLabel() {
    return ns.map(Namespace::toString).orElse("");
  }

  /** {@code aria-current} value for a navigation entry: "page" when it is the current section. */
  public String current(String entry) {
    return entry.equals(section) ? "page" : "false";
  }
}
