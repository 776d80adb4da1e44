#include "engine/bench/smallfix/results_chart.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/bench/smallfix/totals.h"

namespace smallfix::bench {
namespace {

constexpr int kWidth = 900;
constexpr int kHeight = 400;
constexpr int kPanelWidth = 400;
constexpr int kPlotTop = 60;
constexpr int kPlotHeight = 260;
constexpr const char* kPlausibleColor = "#8fb8de";
constexpr const char* kCorrectColor = "#2b6cb0";

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Text(double x, double y, const std::string& text, const char* anchor = "middle",
                 int size = 12) {
  return absl::StrFormat(
      "  <text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\">%s</text>\n", x, y, size,
      anchor, Escape(text));
}

std::string Rect(double x, double y, double w, double h, const char* fill,
                 const std::string& title) {
  return absl::StrFormat(
      "  <rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
      "fill=\"%s\"><title>%s</title></rect>\n",
      x, y, w, h, fill, Escape(title));
}

std::string Line(double x1, double y1, double x2, double y2) {
  return absl::StrFormat(
      "  <line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", x1, y1, x2,
      y2);
}

// Axes of a panel whose plot area starts at (left, kPlotTop), with y ticks labelled by `label`.
std::string Axes(double left, double width, int ticks, double top_value, const char* format) {
  std::string out;
  const double bottom = kPlotTop + kPlotHeight;
  out += Line(left, kPlotTop, left, bottom);
  out += Line(left, bottom, left + width, bottom);
  for (int i = 0; i <= ticks; ++i) {
    const double y = bottom - kPlotHeight * i / static_cast<double>(ticks);
    out += Line(left - 4, y, left, y);
    out += Text(left - 7, y + 4, absl::StrFormat(format, top_value * i / ticks), "end", 10);
  }
  return out;
}

std::string RatesPanel(const BenchRun& run) {
  const std::map<std::string, Totals> totals = ComputeTotals(run.bugs);
  const std::vector<std::string> order = TotalsOrder(totals);
  const double left = 60;
  std::string out = Text(left + kPanelWidth / 2.0 - 20, 30,
                         "Plausible and correct patches per family", "middle", 14);
  out += Axes(left, kPanelWidth - 40, 5, 100, "%.0f%%");
  const double group = (kPanelWidth - 40) / std::max<size_t>(1, order.size());
  const double bar = group * 0.35;
  const double bottom = kPlotTop + kPlotHeight;
  for (size_t i = 0; i < order.size(); ++i) {
    const Totals& t = totals.at(order[i]);
    const double x = left + group * i + group * 0.15;
    const double hp = kPlotHeight * t.PlausibleRate();
    const double hc = kPlotHeight * t.CorrectRate();
    out += Rect(x, bottom - hp, bar, hp, kPlausibleColor,
                absl::StrFormat("%s: %d of %d plausible", order[i], t.plausible, t.bugs));
    out += Rect(x + bar, bottom - hc, bar, hc, kCorrectColor,
                absl::StrFormat("%s: %d of %d correct", order[i], t.correct, t.bugs));
    out += Text(x + bar, bottom + 16, order[i]);
    out += Text(x + bar, bottom + 30, absl::StrFormat("n=%d", t.bugs), "middle", 10);
  }
  // Legend.
  out += Rect(left + 10, kHeight - 30, 12, 12, kPlausibleColor, "plausible");
  out += Text(left + 27, kHeight - 20, "plausible", "start", 11);
  out += Rect(left + 100, kHeight - 30, 12, 12, kCorrectColor, "correct");
  out += Text(left + 117, kHeight - 20, "correct", "start", 11);
  return out;
}

std::string TimePanel(const BenchRun& run) {
  std::vector<double> seconds;
  for (const BugResult& bug : run.bugs) {
    if (bug.correct) seconds.push_back(bug.seconds);
  }
  const double left = kPanelWidth + 110;
  const double width = kPanelWidth - 40;
  std::string out =
      Text(left + width / 2, 30, absl::StrFormat("Time to a correct fix (%d bugs)", seconds.size()),
           "middle", 14);
  const Histogram histogram = MakeHistogram(seconds, 10);
  const int highest =
      std::max(1, *std::max_element(histogram.counts.begin(), histogram.counts.end()));
  out += Axes(left, width, highest, highest, "%.0f");
  const double bottom = kPlotTop + kPlotHeight;
  const double bin = width / histogram.counts.size();
  for (size_t i = 0; i < histogram.counts.size(); ++i) {
    const double h = kPlotHeight * histogram.counts[i] / static_cast<double>(highest);
    const double from = histogram.width * i;
    out += Rect(
        left + bin * i + 1, bottom - h, bin - 2, h, kCorrectColor,
        absl::StrFormat("%.0f-%.0f s: %d bugs", from, from + histogram.width, histogram.counts[i]));
    if (i % 2 == 0)
      out += Text(left + bin * i, bottom + 16, absl::StrFormat("%.0f", from), "middle", 10);
  }
  out += Text(left + width, bottom + 16,
              absl::StrFormat("%.0f", histogram.width * histogram.counts.size()), "middle", 10);
  out += Text(left + width / 2, bottom + 34, "seconds (repair, validation included)", "middle", 11);
  return out;
}

}  // namespace

Histogram MakeHistogram(const std::vector<double>& values, int bins) {
  Histogram histogram;
  histogram.counts.assign(std::max(1, bins), 0);
  double highest = 0;
  for (double value : values) highest = std::max(highest, value);
  // A round bin width: 1, 2, 5, 10, 20, 50, ... seconds.
  const double raw = std::max(highest, 1.0) / histogram.counts.size();
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    histogram.width = step * magnitude;
    if (histogram.width >= raw) break;
  }
  for (double value : values) {
    const size_t bin = std::min(histogram.counts.size() - 1,
                                static_cast<size_t>(std::max(0.0, value) / histogram.width));
    ++histogram.counts[bin];
  }
  return histogram;
}

std::string ResultsSvg(const BenchRun& run) {
  std::string out = absl::StrFormat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"sans-serif\">\n",
      kWidth, kHeight, kWidth, kHeight);
  out += absl::StrFormat("  <title>smallfix bench (%s mode, %d bugs)</title>\n", Escape(run.mode),
                         run.bugs.size());
  out += absl::StrFormat("  <rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                         kWidth, kHeight);
  out += RatesPanel(run);
  out += TimePanel(run);
  out += "</svg>\n";
  return out;
}

}  // namespace smallfix::bench
