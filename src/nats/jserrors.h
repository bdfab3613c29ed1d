#pragma once

/**
 * The JetStream API error codes (`err_code` of an API error reply) the tool acts on. Error::jsErrCode()
 * holds them; Error::Kind::NotFound is set for the "not found" ones. Header-only; any thread.
 */
namespace MqttDoctor::JsErrors {

constexpr int ConsumerNameInUse = 10013; ///< "consumer name already in use"
constexpr int ConsumerNotFound = 10014;
constexpr int NoMessageFound = 10037;
constexpr int NotEnabledForAccount = 10039; ///< JetStream not enabled for the account
constexpr int StreamNameInUse = 10058; ///< "stream name already in use with a different configuration"
constexpr int StreamNotFound = 10059;
constexpr int WrongLastSequence = 10071; ///< an expected-last-sequence header that no longer holds (optimistic lock)
constexpr int ConsumerExistingActive = 10105; ///< "consumer already exists and is still active"
constexpr int StreamOffline = 10118; ///< no server of the stream's replica group answers
constexpr int ConsumerAlreadyExists = 10148; ///< "consumer already exists" (a create that would not update it)

} // namespace MqttDoctor::JsErrors
