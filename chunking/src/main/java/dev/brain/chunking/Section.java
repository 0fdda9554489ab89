package dev.brain.chunking;

import java.util.ArrayList;
import java.util.List;

/**
 * A run of blocks under one heading path. Sections never share a chunk, except that a section
 * holding nothing but its heading merges into the next section when that one is nested under it.
 *
 * @param headingPath enclosing headings, outermost first; empty before the first heading
 * @param blocks the section's top-level blocks in text order, its heading line first
 * @param headingOnly whether the blocks are heading lines only
 */
record Section(List<String> headingPath, List<Piece> blocks, boolean headingOnly) {

  Section {
    headingPath = List.copyOf(headingPath);
    blocks = List.copyOf(blocks);
  }

  int start() {
    return blocks.getFirst().start();
  }

  int end() {
    return blocks.getLast().end();
  }

  /**
   * Merges each heading-only section into the section after it when that section is nested under it
   * ({@code # A} directly followed by {@code ## B}): the merged chunk keeps the deeper path, in
   * which the merged heading is an ancestor, so the path stays honest. Otherwise (a sibling or a
   * shallower heading follows) the heading-only section stays a chunk of its own.
   */
  static List<Section> mergeHeadingOnly(List<Section> sections) {
    List<Section> out = new ArrayList<>();
    Section pending = null;
    for (Section section : sections) {
      Section current = section;
      if (pending != null && nestedUnder(current, pending)) {
        List<Piece> blocks = new ArrayList<>(pending.blocks);
        blocks.addAll(current.blocks);
        current = new Section(current.headingPath, blocks, current.headingOnly);
      } else if (pending != null) {
        out.add(pending);
      }
      pending = null;
      if (current.headingOnly) {
        pending = current;
      } else {
        out.add(current);
      }
    }
    if (pending != null) {
      out.add(pending);
    }
    return out;
  }

  /** The longest heading path all sections share. */
  static List<String> commonPath(List<Section> sections) {
    List<String> common = sections.getFirst().headingPath;
    for (Section section : sections) {
      int n = 0;
      while (n < common.size()
          && n < section.headingPath.size()
          && common.get(n).equals(section.headingPath.get(n))) {
        n++;
      }
      common = common.subList(0, n);
    }
    return List.copyOf(common);
  }

  private static boolean nestedUnder(Section child, Section parent) {
    List<String> path = child.headingPath;
    return path.size() > parent.headingPath.size()
        && path.subList(0, parent.headingPath.size()).equals(parent.headingPath);
  }
}
