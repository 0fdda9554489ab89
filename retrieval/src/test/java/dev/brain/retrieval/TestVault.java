package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A small vault of a dozen records written to a folder and synced into a real index with the real
 * embedding model: Markdown notes with tags, dates and wikilinks, and a JSONL file of documents
 * with publication dates.
 */
final class TestVault {
  private TestVault() {}

  static final String ESPRESSO = "note:vault/espresso.md";
  static final String GRINDERS = "note:vault/grinders.md";
  static final String COFFEE_LOG = "note:vault/coffee-log.md";
  static final String SLEEP = "note:vault/sleep.md";
  static final String CARNEY = "note:vault/bank-of-canada.md";
  static final String GEOLOGY = "note:vault/minerals.md";
  static final String SOURDOUGH = "note:vault/sourdough.md";
  static final String OLD_DOC = "doc:crema-1";
  static final String NEW_DOC = "doc:crema-2";

  /** Writes the vault under {@code dir/vault}, syncs it into {@code dir/data} and opens it. */
  static BrainIndex build(Path dir) throws IOException {
    Path vault = dir.resolve("vault");
    Files.createDirectories(vault);
    write(
        vault,
        "espresso.md",
        """
        ---
        tags: [espresso, coffee]
        created: 2024-03-01
        ---
        # Dialing in espresso

        Pull a double shot with 18 g of coffee in and 36 g out in about 28 seconds. If the shot
        runs fast, grind finer; if it chokes, grind coarser. Fresh beans matter more than the
        machine. See [[grinders]] for the burr grinder I use.
        """);
    write(
        vault,
        "grinders.md",
        """
        ---
        tags: [coffee, gear]
        created: 2024-02-10
        ---
        # Burr grinders

        Conical burrs give a wider particle distribution than flat burrs. A stepless adjustment
        helps with fine tuning for espresso. Retention and static are the usual complaints.
        """);
    write(
        vault,
        "coffee-log.md",
        """
        ---
        tags: [coffee, journal]
        created: 2024-04-02
        ---
        # Coffee log

        Tuesday: the Ethiopian beans tasted of blueberry. Following [[espresso]] again today.
        """);
    write(
        vault,
        "sleep.md",
        """
        ---
        tags: [health]
        created: 2023-11-20
        ---
        # Falling asleep

        Keep the bedroom dark and cool, avoid caffeine after noon and wake up at a fixed hour
        every morning, weekends too. Screens before bed make it harder to drift off; reading a
        paper book helps me doze off within minutes.
        """);
    write(
        vault,
        "bank-of-canada.md",
        """
        ---
        tags: [mark-carney, economics]
        aliases: [BoC]
        created: 2021-06-15
        ---
        # Bank of Canada

        Notes on the former governor's speeches about inflation targeting, climate risk in
        finance and the value of central bank independence.
        """);
    write(vault, "minerals.md", minerals());
    write(vault, "sourdough.md", sourdough());
    write(
        vault,
        "gardening.md",
        """
        ---
        tags: [garden]
        created: 2022-05-05
        ---
        # Tomatoes

        Stake the tomato plants early and water them at the base in the morning.
        """);
    write(
        vault,
        "docs.jsonl",
        """
        {"_id": "crema-1", "title": "Crema and espresso freshness", "text": "Crema on an espresso shot comes from carbon dioxide in freshly roasted coffee beans.", "published_at": "2019-05-01"}
        {"_id": "crema-2", "title": "Espresso crema revisited", "text": "Newer research on espresso crema: roast date, pressure and water temperature change how much foam a shot keeps.", "published_at": "2023-09-12"}
        """);
    BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")));
    index.sync(List.of(vault));
    return index;
  }

  /** A long note with one rare word ("zeolite") far from its start and end. */
  private static String minerals() {
    var b = new StringBuilder("---\ntags: [geology]\ncreated: 2022-01-01\n---\n# Minerals\n\n");
    for (int i = 0; i < 12; i++) {
      b.append("Field trip notes, paragraph ")
          .append(i)
          .append(
              ": granite outcrops, feldspar crystals and quartz veins along the river bank.\n\n");
    }
    b.append(
        "In the old quarry we found zeolite, a porous aluminosilicate used in water filters.\n\n");
    for (int i = 12; i < 24; i++) {
      b.append("Field trip notes, paragraph ")
          .append(i)
          .append(": basalt columns, mica flakes and garnet specks near the trail.\n\n");
    }
    return b.toString();
  }

  /** A note long enough for many chunks, every one of them about sourdough starters. */
  private static String sourdough() {
    var b = new StringBuilder("---\ntags: [baking]\ncreated: 2023-02-02\n---\n# Sourdough\n\n");
    for (int i = 0; i < 40; i++) {
      b.append("Day ")
          .append(i)
          .append(": fed the sourdough starter with rye flour and water; the starter doubled in ")
          .append(4 + i % 5)
          .append(" hours and smelled of yoghurt. The levain went into a loaf with a long cold")
          .append(" retard overnight.\n\n");
    }
    return b.toString();
  }

  private static void write(Path vault, String name, String text) throws IOException {
    Files.writeString(vault.resolve(name), text);
  }
}
