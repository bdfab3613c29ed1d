#pragma once

#include <QWidget>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

class QLabel;
class QPlainTextEdit;
class QTreeView;

namespace MqttDoctor {

class StreamDiffModel;

/**
 * "Expected vs actual": an account's MQTT streams as the servers' versions expect them (the core's
 * Layouts::choose) beside what the server reports, field by field with differences highlighted, and
 * the selected stream's natscli-style `-old +new` diff (the one the repair wizard shows). Computed on
 * the GUI thread from data already loaded (no network).
 */
class StreamDiffPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StreamDiffPanel)

public:
    explicit StreamDiffPanel(QWidget *parent = nullptr);
    ~StreamDiffPanel() override;

    /** Compares the account's streams with the layout `servers` call for. Keeps the selected stream. */
    void setAccount(const AccountInfo &account, const QList<ServerInfo> &servers);
    /** Selects a stream's row; false when the stream is not listed. */
    bool selectStream(const QString &name);
    QString selectedStream() const;

    StreamDiffModel *model() const { return m_model; }
    QTreeView *view() const { return m_tree; }
    QString summaryText() const;
    /** The diff shown below the table (the selected stream's, else every stream's). */
    QString diffText() const;

private:
    void showDiff();

    QLabel *m_summary;
    StreamDiffModel *m_model;
    QTreeView *m_tree;
    QLabel *m_diffTitle;
    QPlainTextEdit *m_diff;
};

} // namespace MqttDoctor
