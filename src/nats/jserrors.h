#pragma once

/**
 * The JetStream API error codes (`err_code` of an API error reply) the tool acts on. Error::jsErrCode()
 * holds them; Error::Kind::NotFound is set for the "not found" ones. Header-only; any thread.
 */
namespace MqttDoctor::JsErrors {

constexpr int ConsumerNotFound = 10014;
constexpr int NoMessageFound = 10037;
constexpr int NotEnabledForAccount = 10039; ///< JetStream not enabled for the account
constexpr int StreamNotFound = 10059;
constexpr int StreamOffline = 10118; ///< no server of the stream's replica group answers

} // namespace MqttDoctor::JsErrors
