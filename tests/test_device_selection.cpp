// --devices: what is accepted, what is refused and how it says so, and the rule that the
// GPUs of one run are one model. No GPU needed: the machine's GPU count is a parameter.
#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "tuner/pipeline/device_selection.h"

namespace sgemm_tune {
namespace {

std::string parse_error(const std::string &text) {
  try {
    parse_device_selection(text);
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

std::string resolve_error(const DeviceSelection &s, int count) {
  try {
    resolve_devices(s, count);
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

TEST(DeviceSelection, AllMeansEveryGpuOfTheMachine) {
  const DeviceSelection s = parse_device_selection("all");
  EXPECT_TRUE(s.all);
  EXPECT_EQ(resolve_devices(s, 1), (std::vector<int>{0}));
  EXPECT_EQ(resolve_devices(s, 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(s.first(), 0);
}

TEST(DeviceSelection, AListKeepsItsOrder) {
  const DeviceSelection s = parse_device_selection("2,0");
  EXPECT_FALSE(s.all);
  EXPECT_EQ(s.listed, (std::vector<int>{2, 0}));
  EXPECT_EQ(resolve_devices(s, 3), (std::vector<int>{2, 0}));
  EXPECT_EQ(s.first(), 2);
  EXPECT_EQ(parse_device_selection(" 1 , 3 ").listed, (std::vector<int>{1, 3}));
  EXPECT_EQ(parse_device_selection("7").listed, (std::vector<int>{7}));
}

TEST(DeviceSelection, OneDeviceIsTheListOfIt) {
  const DeviceSelection s = DeviceSelection::one(1);
  EXPECT_EQ(resolve_devices(s, 2), (std::vector<int>{1}));
  // --device keeps its own spelling in messages.
  EXPECT_TRUE(contains(resolve_error(s, 1), "--device 1: GPU 1 does not exist")) << resolve_error(s, 1);
}

TEST(DeviceSelection, EmptyListsAndItemsAreRefused) {
  for (const std::string text : {"", " ", ","}) {
    const std::string e = parse_error(text);
    EXPECT_TRUE(contains(e, "--devices")) << "\"" << text << "\": " << e;
    EXPECT_TRUE(contains(e, "e.g. 0,1")) << "\"" << text << "\": " << e;
  }
  EXPECT_TRUE(contains(parse_error(""), "no device given"));
  EXPECT_TRUE(contains(parse_error("0,,1"), "an empty item"));
  EXPECT_TRUE(contains(parse_error("0,"), "an empty item"));
}

TEST(DeviceSelection, AnythingButDeviceNumbersIsRefused) {
  EXPECT_TRUE(contains(parse_error("one"), "\"one\" is not a device number"));
  EXPECT_TRUE(contains(parse_error("-1"), "\"-1\" is not a device number"));
  EXPECT_TRUE(contains(parse_error("0;1"), "is not a device number"));
  EXPECT_TRUE(contains(parse_error("1.5"), "is not a device number"));
  EXPECT_TRUE(contains(parse_error("99999999999"), "is not a device number"));
  EXPECT_TRUE(contains(parse_error("ALL"), "is not a device number"));
  EXPECT_TRUE(contains(parse_error("all,1"), "all stands alone"));
  // Shown safely: a terminal is not commanded by the message.
  EXPECT_FALSE(contains(parse_error("\x1b[31m"), "\x1b"));
}

TEST(DeviceSelection, ADeviceListedTwiceIsRefused) {
  EXPECT_TRUE(contains(parse_error("0,1,0"), "device 0 is listed twice")) << parse_error("0,1,0");
  EXPECT_TRUE(contains(parse_error("1, 1"), "device 1 is listed twice"));
}

TEST(DeviceSelection, ADeviceTheMachineLacksIsNamed) {
  const std::string e = resolve_error(parse_device_selection("0,2"), 2);
  EXPECT_TRUE(contains(e, "--devices 0,2: GPU 2 does not exist: this machine has 2 GPU(s), numbered from 0")) << e;
  EXPECT_EQ(resolve_error(parse_device_selection("0,1"), 2), "");
}

GpuInfo gpu(int device, const std::string &name, int major, int minor) {
  GpuInfo g;
  g.device = device;
  g.name = name;
  g.compute_major = major;
  g.compute_minor = minor;
  return g;
}

std::string model_error(const std::vector<GpuInfo> &gpus) {
  try {
    check_one_model(gpus);
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

TEST(DeviceSelection, TheGpusOfARunAreOneModel) {
  EXPECT_EQ(model_error({gpu(0, "NVIDIA H200", 9, 0)}), "");
  EXPECT_EQ(model_error({gpu(0, "NVIDIA H200", 9, 0), gpu(1, "NVIDIA H200", 9, 0)}), "");
  const std::string names = model_error({gpu(0, "NVIDIA H200", 9, 0), gpu(1, "NVIDIA H100 80GB HBM3", 9, 0)});
  EXPECT_TRUE(contains(names, "GPU 0 is NVIDIA H200 (compute 9.0)")) << names;
  EXPECT_TRUE(contains(names, "GPU 1 is NVIDIA H100 80GB HBM3 (compute 9.0)")) << names;
  EXPECT_TRUE(contains(names, "do not compare")) << names;
  // The same name with another compute capability is another model too.
  const std::string cc = model_error({gpu(2, "NVIDIA X", 9, 0), gpu(3, "NVIDIA X", 10, 0)});
  EXPECT_TRUE(contains(cc, "GPU 2 is NVIDIA X (compute 9.0) but GPU 3 is NVIDIA X (compute 10.0)")) << cc;
}

}  // namespace
}  // namespace sgemm_tune
